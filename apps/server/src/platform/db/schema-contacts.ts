import type { Generated } from 'kysely';

/** Tables of migration 0009_contacts_tags. Times are epoch ms; '' = none for texts (their default). */
export interface ContactTable {
  id: string;
  orgi: string;
  name: string;
  phone: Generated<string>;
  /** Normalised comma list (lower case, no spaces). */
  email: Generated<string>;
  company: Generated<string>;
  gender: Generated<string>;
  region: Generated<string>;
  address: Generated<string>;
  birthday: Generated<string>;
  memo: Generated<string>;
  owner: string | null;
  /** The owner's primary department when saved: the data-permission scope of holders of A05. */
  organ: string | null;
  creater: string;
  /** Lower-cased name, mobile, emails and company, for the contains-search of the list. */
  searchkey: Generated<string>;
  createtime: number;
  updatetime: number;
}

/**
 * What a contact is known by, unique per organisation: `phone` / `email` keys mirror the contact's fields
 * (the duplicate check is this table's primary key), channel kinds (`webim`, `weixin`, …) link a visitor
 * id or platform user id to the contact.
 */
export interface ContactIdentityTable {
  orgi: string;
  kind: string;
  value: string;
  contactid: string;
  createtime: number;
}

export interface ContactTagTable {
  contactid: string;
  tagid: string;
  orgi: string;
}

export interface TagTable {
  id: string;
  orgi: string;
  name: string;
  color: string;
  tagtype: string;
  sortindex: Generated<number>;
  creater: string;
  createtime: number;
  updatetime: number;
}

/** Service topics, a tree; parentid '' at the top (so the unique name index covers the top level). */
export interface ServiceTopicTable {
  id: string;
  orgi: string;
  name: string;
  parentid: string;
  sortindex: Generated<number>;
  creater: string;
  createtime: number;
  updatetime: number;
}

export interface ContactTables {
  contact: ContactTable;
  contact_identity: ContactIdentityTable;
  contact_tag: ContactTagTable;
  tag: TagTable;
  service_topic: ServiceTopicTable;
}
