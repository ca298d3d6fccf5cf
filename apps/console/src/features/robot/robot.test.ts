import { describe, expect, it } from 'vitest';
import type { RobotDto } from '@kefu/protocol';
import { fromRobotForm, toRobotForm } from './components/RobotFormItems';
import { zoneOffset } from './components/RobotQuestions';

const robot: RobotDto = {
  id: 'r',
  name: '小智',
  avatar: '',
  welcome: 'w',
  fallback: 'f',
  suggestmsg: 's',
  handoffmsg: 'h',
  answerThreshold: 0.45,
  suggestThreshold: 0.25,
  handoffFallbacks: 2,
  handoffKeywords: ['投诉', '律师'],
  handoffButton: true,
  kbtypes: [],
  enabled: true,
  appids: ['a1'],
  createtime: 0,
  updatetime: 0,
};

describe('robot screens', () => {
  it('the form edits keywords as lines and sends them as a list, without the sites (bound separately)', () => {
    const form = toRobotForm(robot);
    expect(form.handoffKeywords).toBe('投诉\n律师');
    const sent = fromRobotForm({ ...form, handoffKeywords: '投诉，律师\n 12315 \n', appids: ['a2'] });
    expect(sent.handoffKeywords).toEqual(['投诉', '律师', '12315']);
    expect('appids' in sent).toBe(false);
  });

  it('the statistics ask with the tenant zone’s offset (as getTimezoneOffset counts it)', () => {
    const noon = Date.parse('2026-01-15T12:00:00Z');
    expect(zoneOffset('Asia/Shanghai', noon)).toBe(-480);
    expect(zoneOffset('UTC', noon)).toBe(0);
    expect(zoneOffset('America/New_York', noon)).toBe(300);
    expect(zoneOffset('America/New_York', Date.parse('2026-07-15T12:00:00Z'))).toBe(240);
  });
});
