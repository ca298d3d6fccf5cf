import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_conversations.js';
import * as m0003 from './0003_visitor_channel.js';
import * as m0004 from './0004_online.js';
import * as m0005 from './0005_quickreply.js';
import * as m0006 from './0006_history_index.js';
import * as m0007 from './0007_media_quota.js';
import * as m0008 from './0008_history_search_export.js';
import * as m0011 from './0011_presence_texts.js';
import * as m0009 from './0009_contacts_tags.js';
import * as m0012 from './0012_compliance.js';
import * as m0010 from './0010_monitor.js';
import * as m0016 from './0016_knowledge_robot.js';
import * as m0013 from './0013_analysis.js';
import * as m0017 from './0017_messaging_channels.js';
import * as m0018 from './0018_quality.js';
import * as m0019 from './0019_quality_indexes.js';
import * as m0022 from './0022_quality_decisions.js';
import * as m0015 from './0015_identity.js';
import * as m0021 from './0021_work_rollups.js';
import * as m0014 from './0014_personal_security.js';
import * as m0020 from './0020_history_search_window.js';
import * as m0023 from './0023_quality_remind_index.js';

export interface MigrationModule {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Forward-only, applied in this order. Never edit a landed migration: add a new one. */
export const MIGRATIONS: ReadonlyArray<readonly [name: string, module: MigrationModule]> = [
  ['0001_foundation', m0001],
  ['0002_conversations', m0002],
  ['0003_visitor_channel', m0003],
  ['0004_online', m0004],
  ['0005_quickreply', m0005],
  ['0006_history_index', m0006],
  ['0007_media_quota', m0007],
  ['0008_history_search_export', m0008],
  ['0011_presence_texts', m0011],
  ['0009_contacts_tags', m0009],
  ['0012_compliance', m0012],
  ['0010_monitor', m0010],
  ['0016_knowledge_robot', m0016],
  ['0013_analysis', m0013],
  ['0017_messaging_channels', m0017],
  ['0018_quality', m0018],
  ['0019_quality_indexes', m0019],
  ['0022_quality_decisions', m0022],
  ['0015_identity', m0015],
  ['0021_work_rollups', m0021],
  ['0014_personal_security', m0014],
  ['0020_history_search_window', m0020],
  ['0023_quality_remind_index', m0023],
];
