import type { Generated } from 'kysely';

/** Tables of migration 0016_knowledge_robot. Times are epoch ms; scores and thresholds per mille (0–1000). */
export interface KbTypeTable {
  id: string;
  orgi: string;
  name: string;
  /** '' at the top of the tree. */
  parentid: Generated<string>;
  sortindex: Generated<number>;
  createtime: number;
  updatetime: number;
}

export interface KbItemTable {
  id: string;
  orgi: string;
  /** '' = not filed under a type. */
  typeid: Generated<string>;
  question: string;
  /** JSON array of strings. */
  similar: Generated<string>;
  answer: string;
  enabled: Generated<number>;
  begintime: number | null;
  endtime: number | null;
  hits: Generated<number>;
  creater: Generated<string>;
  createtime: number;
  updatetime: number;
}

export interface KbItemTopicTable {
  itemid: string;
  topicid: string;
  orgi: string;
}

/** One question of an item (kind 0: the standard question, 1: a similar one) and its search words. */
export interface KbQuestionTable {
  id: string;
  orgi: string;
  itemid: string;
  question: string;
  tokens: string;
  kind: Generated<number>;
}

export interface RobotTable {
  id: string;
  orgi: string;
  name: string;
  avatar: Generated<string>;
  welcome: Generated<string>;
  fallback: Generated<string>;
  suggestmsg: Generated<string>;
  handoffmsg: Generated<string>;
  answer_score: number;
  suggest_score: number;
  handoff_fallbacks: Generated<number>;
  /** JSON array of strings. */
  handoff_keywords: Generated<string>;
  handoff_button: Generated<number>;
  /** JSON array of knowledge type ids ([] = all). */
  kbtypes: Generated<string>;
  enabled: Generated<number>;
  createtime: number;
  updatetime: number;
}

/** A channel's target (webim: an access point id) answered by a robot. */
export interface RobotBindingTable {
  channel: string;
  target: string;
  orgi: string;
  robotid: string;
  createtime: number;
}

export interface RobotSessionTable {
  agentserviceid: string;
  orgi: string;
  robotid: string;
  /** Fallbacks in a row (an answer resets it). */
  fallbacks: Generated<number>;
  questions: Generated<number>;
  /** Why the chat went to a human (HandoffReason), null while with the robot. */
  handoff: string | null;
  handofftime: number | null;
  createtime: number;
}

export interface RobotQuestionTable {
  id: string;
  orgi: string;
  robotid: string;
  /** '' for the test chat. */
  agentserviceid: Generated<string>;
  question: string;
  action: string;
  itemid: string | null;
  score: Generated<number>;
  source: Generated<string>;
  /** 1 once turned into a knowledge item (it leaves the unanswered list). */
  learned: Generated<number>;
  createtime: number;
}

export interface RobotReplyTable {
  msgid: string;
  agentserviceid: string;
  /** RobotReplyMeta as JSON. */
  meta: string;
}

export interface KnowledgeTables {
  kb_type: KbTypeTable;
  kb_item: KbItemTable;
  kb_item_topic: KbItemTopicTable;
  kb_question: KbQuestionTable;
  robot: RobotTable;
  robot_binding: RobotBindingTable;
  robot_session: RobotSessionTable;
  robot_question: RobotQuestionTable;
  robot_reply: RobotReplyTable;
}
