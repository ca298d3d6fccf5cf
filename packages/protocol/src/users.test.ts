import { describe, expect, it } from 'vitest';
import { userDisplayName } from './users.js';

describe('userDisplayName', () => {
  it('uname, then nickname, then the login name', () => {
    expect(userDisplayName({ uname: '张三', nickname: '小张', username: 'zhang' })).toBe('张三');
    expect(userDisplayName({ uname: '', nickname: '小张', username: 'zhang' })).toBe('小张');
    expect(userDisplayName({ uname: null, nickname: '', username: 'zhang' })).toBe('zhang');
    expect(userDisplayName({ nickname: '小张' })).toBe('小张');
    expect(userDisplayName(undefined)).toBe('');
  });
});
