import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import { foundOr404, idsFirst } from './rows.js';
import { nameRepeat, rethrowUnique } from './unique.js';

describe('row helpers', () => {
  it('idsFirst: the given ids first, once each, then the rest as they were; an unknown id is invalid', () => {
    expect(idsFirst(['a', 'b', 'c', 'd'], ['c', 'a', 'c'])).toEqual(['c', 'a', 'b', 'd']);
    expect(() => idsFirst(['a'], ['x'])).toThrow(AppError);
  });

  it('foundOr404 passes a row through and turns none into a 404 with the key', () => {
    expect(foundOr404({ id: 'a' })).toEqual({ id: 'a' });
    expect(() => foundOr404(undefined, 'access_point_not_found')).toThrow('access_point_not_found');
  });

  it('rethrowUnique maps a unique violation and rethrows anything else', () => {
    const handler = rethrowUnique(() => nameRepeat('title'));
    const unique = { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: t.orgi, t.title' };
    expect(() => handler(unique)).toThrow(AppError);
    const other = new Error('boom');
    expect(() => handler(other)).toThrow(other);
  });
});
