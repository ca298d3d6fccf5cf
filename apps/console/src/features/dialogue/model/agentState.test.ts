import { describe, expect, it } from 'vitest';
import { isStoredState, mapWorkStatus } from './agentState';

describe('mapWorkStatus', () => {
  it('maps leave to notready and notbusy to ready', () => {
    expect(mapWorkStatus('leave', 'ready')).toBe('notready');
    expect(mapWorkStatus('notbusy', 'busy')).toBe('ready');
    expect(mapWorkStatus('notbusy', 'notready')).toBe('ready');
  });
  it('keeps busy and ready as they are', () => {
    expect(mapWorkStatus('busy', 'ready')).toBe('busy');
    expect(mapWorkStatus('ready', 'notready')).toBe('ready');
    expect(mapWorkStatus('notready', 'ready')).toBe('notready');
  });
  it('changes nothing when the server agrees with the client', () => {
    expect(mapWorkStatus('ready', 'ready')).toBeNull();
    expect(mapWorkStatus('leave', 'notready')).toBeNull();
    expect(mapWorkStatus('notbusy', 'ready')).toBeNull();
    expect(mapWorkStatus('busy', 'busy')).toBeNull();
  });
  it('recognises stored states only', () => {
    expect(isStoredState('busy')).toBe(true);
    expect(isStoredState('leave')).toBe(false);
    expect(isStoredState(undefined)).toBe(false);
  });
});
