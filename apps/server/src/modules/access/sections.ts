import type { z } from 'zod';
import {
  CONSULT_DEFAULT,
  DIALOGUE_DEFAULT,
  INFORMATION_DEFAULT,
  INVITE_DEFAULT,
  LEAVEMSG_DEFAULT,
  consultFields,
  consultSaveSchema,
  dialogueFields,
  dialogueSaveSchema,
  informationFields,
  informationSaveSchema,
  inviteFields,
  inviteSaveSchema,
  leavemsgConfigSaveSchema,
  leavemsgFields,
} from '@kefu/protocol';

/** The per-access-point settings sections: where they live in the API, their code, schema and default. */
export interface SectionDef {
  section: string;
  /** API prefix under /api. */
  prefix: string;
  code: string;
  fields: z.ZodObject;
  save: z.ZodObject;
  fallback: Record<string, unknown>;
  /** Normalises a merged document before it is stored. */
  normalise?: (v: Record<string, unknown>) => Record<string, unknown>;
}

/** A required field is always shown; the message text is always shown and required. */
function normaliseLeavemsg(v: Record<string, unknown>): Record<string, unknown> {
  const fields = structuredClone(v.fields) as Record<string, { show: boolean; required: boolean }>;
  for (const f of Object.values(fields)) if (f.required) f.show = true;
  fields.content = { show: true, required: true };
  return { ...v, fields };
}

/** An information field that is required is enabled. */
function normaliseInformation(v: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(v);
  for (const key of ['name', 'phone', 'email', 'question']) {
    const f = out[key] as { enabled: boolean; required: boolean };
    if (f.required) f.enabled = true;
  }
  return out;
}

export const SECTIONS = {
  consult: {
    section: 'consult',
    prefix: '/api/consultationIcon',
    code: 'A09_A04_A01',
    fields: consultFields,
    save: consultSaveSchema,
    fallback: CONSULT_DEFAULT,
  },
  invite: {
    section: 'invite',
    prefix: '/api/invote',
    code: 'A09_A04_A02',
    fields: inviteFields,
    save: inviteSaveSchema,
    fallback: INVITE_DEFAULT,
  },
  dialogue: {
    section: 'dialogue',
    prefix: '/api/profile',
    code: 'A09_A04_A03',
    fields: dialogueFields,
    save: dialogueSaveSchema,
    fallback: DIALOGUE_DEFAULT,
  },
  information: {
    section: 'information',
    prefix: '/api/gathering',
    code: 'A09_A04_A04',
    fields: informationFields,
    save: informationSaveSchema,
    fallback: INFORMATION_DEFAULT,
    normalise: normaliseInformation,
  },
  leavemsg: {
    section: 'leavemsg',
    prefix: '/api/leavemsg/config',
    code: 'A09_A04_A04',
    fields: leavemsgFields,
    save: leavemsgConfigSaveSchema,
    fallback: LEAVEMSG_DEFAULT,
    normalise: normaliseLeavemsg,
  },
} as const satisfies Record<string, SectionDef>;

export type SectionName = keyof typeof SECTIONS;
