import type { ContactChannel, ContactConversationDto, ContactDto, Gender, TagDto } from '@kefu/protocol';
import type { ContactRow } from './contacts.repository.js';

/** What presentContact needs besides the row: its tags, identities and the owner's name. */
export interface ContactExtras {
  tags: TagDto[];
  identities: Array<{ kind: string; value: string; createtime: number }>;
  ownername: string;
}

export const presentContact = (c: ContactRow, x: ContactExtras): ContactDto => ({
  id: c.id,
  name: c.name,
  phone: c.phone,
  email: c.email,
  company: c.company,
  gender: c.gender as Gender,
  region: c.region,
  address: c.address,
  birthday: c.birthday,
  memo: c.memo,
  tags: x.tags,
  owner: c.owner,
  ownername: x.ownername,
  organ: c.organ,
  creater: c.creater,
  createtime: Number(c.createtime),
  updatetime: Number(c.updatetime),
  identities: x.identities.map((i) => ({
    channel: i.kind as ContactChannel,
    userid: i.value,
    createtime: Number(i.createtime),
  })),
});

/** A timeline row as read (a deleted topic joins as null). */
export const presentConversation = (
  r: Omit<ContactConversationDto, 'topicname'> & { topicname: string | null },
): ContactConversationDto => ({
  ...r,
  createtime: Number(r.createtime),
  endtime: r.endtime === null ? null : Number(r.endtime),
  userasks: Number(r.userasks),
  agentreplys: Number(r.agentreplys),
  topicid: r.topicname === null ? null : r.topicid,
  topicname: r.topicname ?? '',
});
