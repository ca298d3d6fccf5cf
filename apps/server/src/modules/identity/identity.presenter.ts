import type { IdentityKind, IdentityProviderDto, MyIdentityDto, TokenStyle } from '@kefu/protocol';
import type { IdentityProviderTable } from '../../platform/db/schema-identity.js';

/** A provider for its settings screen: everything but the client secret, which never leaves the server. */
export const presentProvider = (r: IdentityProviderTable): IdentityProviderDto => ({
  id: r.id,
  name: r.name,
  kind: r.kind as IdentityKind,
  enabled: !!r.enabled,
  issuer: r.issuer,
  clientid: r.clientid,
  hassecret: r.clientsecret !== '',
  scope: r.scope,
  authorizeurl: r.authorizeurl,
  tokenurl: r.tokenurl,
  userinfourl: r.userinfourl,
  idfield: r.idfield,
  namefield: r.namefield,
  tokenstyle: r.tokenstyle as TokenStyle,
  createtime: Number(r.createtime),
});

export const presentIdentity = (r: {
  provider: string;
  providername: string;
  subject: string;
  createtime: number;
}): MyIdentityDto => ({ ...r, createtime: Number(r.createtime) });
