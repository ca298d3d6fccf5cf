import type {
  AiDegreeRobotDto,
  AiServiceDto,
  AiServiceTestDto,
  KbItemDto,
  RobotAnswerDto,
  RobotDto,
  WebimAiDto,
} from '@kefu/protocol';
import { get, post } from '../../lib/api';

/** The fields of a robot form (save / update). */
export type RobotFields = Partial<Omit<RobotDto, 'id' | 'appids' | 'createtime' | 'updatetime'>>;

export interface AiServiceFields extends Omit<AiServiceDto, 'hasKey'> {
  /** Absent keeps the stored key. */
  apiKey?: string;
}

const C = '/xiaoe/config';

export const robotApi = {
  list: (signal?: AbortSignal) => get<RobotDto[]>(`${C}/list`, undefined, signal),
  detail: (id: string, signal?: AbortSignal) => get<RobotDto>(`${C}/detail`, { id }, signal),
  save: (b: RobotFields & { name: string }) => post<RobotDto>(`${C}/save`, b),
  update: (id: string, b: RobotFields) => post<RobotDto>(`${C}/update`, { id, ...b }),
  remove: (id: string) => post<null>(`${C}/delete`, { id }),
  /** The test chat: one question, answered as a visitor's would be. */
  chat: (id: string, question: string) => post<RobotAnswerDto>(`${C}/chat`, { id, question }),
  ai: (signal?: AbortSignal) => get<AiServiceDto>('/xiaoe/serviceai', undefined, signal),
  saveAi: (b: AiServiceFields) => post<AiServiceDto>('/xiaoe/serviceai/save', b),
  testAi: () => post<AiServiceTestDto>('/xiaoe/serviceai/test'),
  binding: (appid: string, signal?: AbortSignal) => get<WebimAiDto>('/webim/ai', { appid }, signal),
  /** An access point's robot (null: none). */
  bind: (appid: string, robotid: string | null) =>
    post<WebimAiDto>('/webim/ai', { appid, robotid: robotid ?? '' }),
  sites: (signal?: AbortSignal) =>
    get<Array<{ id: string; name: string }>>('/dialogue/access/list', undefined, signal),
  stats: (q: { begin: string; end: string; robotid?: string; tz: number }, signal?: AbortSignal) =>
    get<AiDegreeRobotDto>('/analyse/aiDegree/robot', q, signal),
  learn: (b: { id: string; typeid?: string; question: string; answer: string }) =>
    post<KbItemDto>('/analyse/aiDegree/learn', b),
};
