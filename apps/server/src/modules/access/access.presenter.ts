import type { AccessPointDto, FaqItemDto } from '@kefu/protocol';
import type { AccessRow, FaqRow } from './access.repository.js';

export const presentAccess = (r: AccessRow, organname: string | null = null): AccessPointDto => ({
  id: r.id,
  name: r.name,
  domain: r.domain,
  organ: r.organ,
  organname: organname ?? '',
  createtime: Number(r.createtime),
  updatetime: Number(r.updatetime),
});

export const presentFaq = (r: FaqRow): FaqItemDto => ({
  id: r.id,
  question: r.question,
  answer: r.answer,
  sortindex: r.sortindex,
});

/** The embed code of an access point; the loader is served by the visitor app under /im/. */
export const embedCode = (origin: string, appid: string): string =>
  `<script src="${origin}/im/loader.js" data-appid="${appid}" async></script>`;
