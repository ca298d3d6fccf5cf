import type { ModuleRegistrar } from '../platform/context.js';
import { registerAuth } from './auth/auth.routes.js';
import { registerLanguage } from './language/language.routes.js';
import { registerAgent } from './agent/agent.routes.js';
import { registerOrgan } from './organ/organ.routes.js';
import { registerUser } from './user/user.routes.js';
import { registerRole } from './role/role.routes.js';
import { registerLoginLog } from './loginlog/loginlog.routes.js';
import { registerConversation } from './conversation/index.js';
import { registerMonitor } from './monitor/index.js';
import { registerMedia } from './media/media.routes.js';
import { registerAccess } from './access/access.routes.js';
import { registerWorkservice } from './workservice/workservice.routes.js';
import { registerSatisfaction } from './satisfaction/satisfaction.routes.js';
import { registerLeavemsg } from './leavemsg/leavemsg.routes.js';
import { registerBlack } from './black/black.routes.js';
import { registerSessionConfig } from './sessionconfig/sessionconfig.routes.js';
import { registerQuickReply } from './quickreply/quickreply.routes.js';
import { registerOnline } from './online/online.routes.js';
import { registerTags } from './tags/tags.routes.js';
import { registerContacts } from './contacts/contacts.routes.js';
import { registerAudit } from './audit/audit.routes.js';
import { registerSensitive } from './sensitive/sensitive.routes.js';
import { registerSecurity } from './security/security.routes.js';
import { registerIdentity } from './identity/identity.routes.js';
import { registerIntegration } from './integration/integration.routes.js';
import { registerBusiness } from './business/business.routes.js';
import { registerQuickFile } from './quickfile/quickfile.routes.js';
import { registerTranslate } from './translate/translate.routes.js';
import { registerSkill } from './organ/skill.routes.js';
import { registerExport } from './export/export.routes.js';
import { registerHistory } from './history/history.routes.js';
import { registerApiDoc } from './apidoc/apidoc.routes.js';
import { registerHealth } from './health/health.routes.js';
import { registerTexts } from './texts/texts.routes.js';
import { registerKnowledge } from './knowledge/kb.routes.js';
import { registerRobot } from './robot/robot.routes.js';
import { registerAnalysis } from './analysis/index.js';
import { registerChannels } from './channels/index.js';
import { registerQuality } from './quality/index.js';

/** Every domain module's registrar, in registration order. Add one line per module. */
export const MODULES: readonly ModuleRegistrar[] = [
  // First: its hook records audited calls of every module after it.
  registerAudit,
  (app, ctx) => registerAuth(app, ctx),
  registerLanguage,
  registerAgent,
  registerOrgan,
  registerUser,
  registerRole,
  registerLoginLog,
  registerConversation,
  registerMonitor,
  registerMedia,
  registerAccess,
  registerWorkservice,
  registerSatisfaction,
  registerLeavemsg,
  registerBlack,
  registerSessionConfig,
  registerQuickReply,
  registerOnline,
  registerTags,
  registerContacts,
  registerSensitive,
  registerSecurity,
  registerIdentity,
  registerIntegration,
  registerBusiness,
  registerQuickFile,
  registerTranslate,
  registerSkill,
  registerExport,
  registerHistory,
  registerTexts,
  registerKnowledge,
  registerRobot,
  registerAnalysis,
  registerChannels,
  registerQuality,
  registerApiDoc,
  registerHealth,
];
