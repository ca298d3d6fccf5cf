import type { RobotDto } from '@kefu/protocol';
import type { RobotRow } from './robot.repository.js';

export const PER_MILLE = 1000;

const list = (json: string): string[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
};

export const presentRobot = (r: RobotRow, appids: readonly string[]): RobotDto => ({
  id: r.id,
  name: r.name,
  avatar: r.avatar,
  welcome: r.welcome,
  fallback: r.fallback,
  suggestmsg: r.suggestmsg,
  handoffmsg: r.handoffmsg,
  answerThreshold: Number(r.answer_score) / PER_MILLE,
  suggestThreshold: Number(r.suggest_score) / PER_MILLE,
  handoffFallbacks: Number(r.handoff_fallbacks),
  handoffKeywords: list(r.handoff_keywords),
  handoffButton: r.handoff_button === 1,
  kbtypes: list(r.kbtypes),
  enabled: r.enabled === 1,
  appids: [...appids],
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
});
