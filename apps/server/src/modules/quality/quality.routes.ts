import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  QUALITY_ALLOT_CODE,
  QUALITY_API as A,
  QUALITY_INSPECT_CODE,
  QUALITY_LABEL_CODE,
  QUALITY_READ_CODES,
  QUALITY_STAFF_CODE,
  exportOptions,
  qualityAllotListQuery,
  qualityAppealBatchSchema,
  qualityAppealEndSchema,
  qualityAppealListQuery,
  qualityAppealMessageSchema,
  qualityAppealSaveSchema,
  qualityAutomationSchema,
  qualityBatchFormQuery,
  qualityExpIdsSchema,
  qualityGetQuery,
  qualityIdQuery,
  qualityLabelListQuery,
  qualityLabelSaveSchema,
  qualityLabelTypeSaveSchema,
  qualityLabelTypeUpdateSchema,
  qualityLabelUpdateSchema,
  qualityListQuery,
  qualityManualAgainSchema,
  qualityManualSchema,
  qualityNoInput,
  qualityNotAllotQuery,
  qualityNotQualitySchema,
  qualityReadQuery,
  qualitySaveBatchSchema,
  qualitySaveSchema,
  qualitySettingsSchema,
  qualitySkillSaveSchema,
  qualityStaffQuery,
  qualitySuggestSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal } from '../../platform/auth/guard.js';
import { requestLang } from '../../platform/http/envelope.js';
import { guardedRoute } from '../../platform/http/guarded-route.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { auditBefore } from '../audit/audit.hook.js';
import * as allot from './allot.service.js';
import * as appeal from './appeal.service.js';
import * as inspect from './inspect.service.js';
import { exportInspections } from './quality.export.js';
import * as repo from './quality.repository.js';
import * as cards from './scorecard.service.js';
import { suggest } from './suggest.service.js';

const READ = [...QUALITY_READ_CODES];
const WORK = [QUALITY_INSPECT_CODE, QUALITY_ALLOT_CODE];
/** GET calls of the spec that change state also answer POST (forms post them). */
const BOTH: Array<'GET' | 'POST'> = ['GET', 'POST'];

/** Quality inspection (A11) and its scorecards (A09_A03_A12): thin, parse → service → envelope. */
export function registerQualityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const route = guardedRoute(app, QUALITY_LABEL_CODE);
  const P = principal;
  const lang = (req: FastifyRequest) => (requestLang(req).startsWith('en') ? 'en' : 'zh');

  // Scorecards, items, binding, settings (A09_A03_A12; setup changes are audited by the audit hook).
  route('GET', A.labelTypeList, qualityNoInput, (req) => cards.listTypes(db, P(req)));
  route('GET', A.labelTypeForm, qualityIdQuery, (req, { id }) => cards.typeForm(db, P(req), id));
  route('POST', A.labelTypeSave, qualityLabelTypeSaveSchema, (req, b) => cards.saveType(db, P(req), b));
  route('POST', A.labelTypeUpdate, qualityLabelTypeUpdateSchema, async (req, b) => {
    auditBefore(req, await repo.findType(db.kysely, P(req).orgi, b.id), b.id);
    return cards.updateType(db, P(req), b);
  });
  route(BOTH, A.labelTypeDelete, qualityIdQuery, async (req, { id }) => {
    auditBefore(req, await repo.findType(db.kysely, P(req).orgi, id), id);
    return cards.deleteType(db, P(req), id);
  });
  route('GET', A.labelList, qualityLabelListQuery, (req, { typeid }) => cards.listLabels(db, P(req), typeid));
  route('GET', A.labelForm, qualityIdQuery, (req, { id }) => cards.labelForm(db, P(req), id));
  route('POST', A.labelSave, qualityLabelSaveSchema, (req, b) => cards.saveLabel(db, P(req), b));
  route('POST', A.labelUpdate, qualityLabelUpdateSchema, async (req, b) => {
    auditBefore(req, await repo.findLabel(db.kysely, P(req).orgi, b.id), b.id);
    return cards.updateLabel(db, P(req), b);
  });
  route(BOTH, A.labelDelete, qualityIdQuery, async (req, { id }) => {
    auditBefore(req, await repo.findLabel(db.kysely, P(req).orgi, id), id);
    return cards.deleteLabel(db, P(req), id);
  });
  route('POST', A.skillQualitySave, qualitySkillSaveSchema, (req, b) => cards.saveSkillCard(db, P(req), b));
  route('GET', A.skillQualityList, qualityNoInput, (req) => cards.skillCards(db, P(req)));
  route('GET', A.settings, qualityNoInput, (req) => cards.settings(db, P(req).orgi), [
    QUALITY_LABEL_CODE,
    ...READ,
  ]);
  route('POST', A.settingsSave, qualitySettingsSchema, async (req, b) => {
    auditBefore(req, await cards.settings(db, P(req).orgi), 'quality.settings');
    return cards.saveSettings(db, P(req), b);
  });

  // Assignment (A11_A02).
  const paged = <S extends typeof qualityNotAllotQuery | typeof qualityAllotListQuery>(s: S) =>
    s.extend(pagingSchema.shape);
  route(
    'GET',
    A.notAllotList,
    paged(qualityNotAllotQuery),
    (req, q) => allot.notAllotList(db, P(req), q, q),
    QUALITY_ALLOT_CODE,
  );
  route(
    'GET',
    A.allotList,
    paged(qualityAllotListQuery),
    (req, q) => allot.allotList(db, P(req), q, q),
    QUALITY_ALLOT_CODE,
  );
  route(
    BOTH,
    A.notQuality,
    qualityNotQualitySchema,
    (req, b) => allot.notQuality(db, P(req), b),
    QUALITY_ALLOT_CODE,
  );
  route(
    'POST',
    A.allotAutomation,
    qualityAutomationSchema,
    (req, b) => allot.automation(db, P(req), b),
    QUALITY_ALLOT_CODE,
  );
  route(
    'POST',
    A.allotAutomationAgain,
    qualityAutomationSchema,
    (req, b) => allot.automationAgain(db, P(req), b),
    QUALITY_ALLOT_CODE,
  );
  route(
    'POST',
    A.allotManual,
    qualityManualSchema,
    (req, b) => allot.manual(db, P(req), b),
    QUALITY_ALLOT_CODE,
  );
  route(
    'POST',
    A.allotManualAgain,
    qualityManualAgainSchema,
    (req, b) => allot.manualAgain(db, P(req), b),
    QUALITY_ALLOT_CODE,
  );
  route('GET', A.allotRule, qualityNoInput, (req) => allot.rule(db, P(req)), QUALITY_ALLOT_CODE);
  route('GET', A.inspectors, qualityNoInput, (req) => allot.inspectors(db, P(req)), WORK);

  // Inspection (A11_A01; an assigner reads everything).
  route(
    'GET',
    A.list,
    qualityListQuery.extend(pagingSchema.shape),
    (req, q) => inspect.list(db, P(req), q, q),
    WORK,
  );
  route('GET', A.detail, qualityIdQuery, (req, { id }) => inspect.detail(db, P(req), id), READ);
  route(
    'GET',
    A.get,
    qualityGetQuery,
    (req, { agentserviceid }) => inspect.get(db, P(req), agentserviceid),
    READ,
  );
  route('GET', A.read, qualityReadQuery, (req, q) => inspect.read(db, P(req), q.id, q.after), READ);
  route('GET', A.readMultiterm, qualityIdQuery, (req, { id }) => inspect.multiterm(db, P(req), id), WORK);
  route('GET', A.count, qualityNoInput, (req) => inspect.count(db, P(req)), READ);
  route('POST', A.save, qualitySaveSchema, (req, b) => inspect.save(db, P(req), b), QUALITY_INSPECT_CODE);
  route(
    'POST',
    A.saveBatch,
    qualitySaveBatchSchema,
    (req, b) => inspect.saveBatch(db, P(req), b),
    QUALITY_INSPECT_CODE,
  );
  // Optional LLM suggestions: read-only, the inspection's inspector only (off by default).
  route(
    'POST',
    A.suggest,
    qualitySuggestSchema,
    (req, { id }) => suggest(db, P(req), id),
    QUALITY_INSPECT_CODE,
  );
  route(
    'GET',
    A.saveBatchForm,
    qualityBatchFormQuery,
    (req, { ids }) => inspect.batchForm(db, P(req), ids),
    QUALITY_INSPECT_CODE,
  );
  route(
    BOTH,
    A.expall,
    qualityListQuery.extend(exportOptions.shape),
    (req, q) => exportInspections(ctx, P(req), q, null, lang(req), q.tz),
    WORK,
  );
  route(
    BOTH,
    A.expIds,
    qualityExpIdsSchema.extend(exportOptions.shape),
    (req, q) => exportInspections(ctx, P(req), {}, q.ids, lang(req), q.tz),
    WORK,
  );

  // Agent view and appeals.
  route(
    'GET',
    A.staffList,
    qualityStaffQuery.extend(pagingSchema.shape),
    (req, q) => inspect.staffList(db, P(req), q, q),
    QUALITY_STAFF_CODE,
  );
  route(
    'POST',
    A.appealSave,
    qualityAppealSaveSchema,
    (req, b) => appeal.save(db, P(req), b),
    QUALITY_STAFF_CODE,
  );
  route(
    'POST',
    A.appealMessageSave,
    qualityAppealMessageSchema,
    (req, b) => appeal.message(db, P(req), b),
    READ,
  );
  route(BOTH, A.appealEnd, qualityAppealEndSchema, (req, b) => appeal.endOne(db, P(req), b), WORK);
  route(
    BOTH,
    A.appealBatch,
    qualityAppealBatchSchema,
    (req, b) => appeal.endBatch(db, P(req), b),
    QUALITY_ALLOT_CODE,
  );
  route(
    'GET',
    A.appealList,
    qualityAppealListQuery.extend(pagingSchema.shape),
    (req, q) => appeal.list(db, P(req), q, q),
    READ,
  );
}
