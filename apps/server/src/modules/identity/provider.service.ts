import type { z } from 'zod';
import type { IdentityProviderDto, MyIdentityDto, providerSaveSchema } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { newId } from '../../platform/ids.js';
import { nameRepeat, rethrowUnique } from '../../platform/db/unique.js';
import { notFound } from '../../platform/http/errors.js';
import { presentIdentity, presentProvider } from './identity.presenter.js';
import * as repo from './identity.repository.js';

/** Third-party login providers of the admin's tenant (corporate security, A09_A07_A02). */
export async function providers(db: Db, p: Principal): Promise<IdentityProviderDto[]> {
  return (await repo.listProviders(db.kysely, p.orgi)).map(presentProvider);
}

const DEFAULT_SCOPE = { oidc: 'openid profile email', oauth2: '' } as const;

/** Creates or updates a provider; a blank secret keeps the stored one. Answers the state before and after. */
export async function saveProvider(
  db: Db,
  p: Principal,
  input: z.output<typeof providerSaveSchema>,
): Promise<{ before: IdentityProviderDto | null; after: IdentityProviderDto }> {
  const k = db.kysely;
  const cur = input.id ? await repo.findProvider(k, input.id, p.orgi) : undefined;
  if (input.id && !cur) throw notFound();
  if (await repo.providerNameTaken(k, p.orgi, input.name, cur?.id ?? null)) throw nameRepeat();
  const now = Date.now();
  const fields = {
    name: input.name,
    kind: input.kind,
    enabled: input.enabled === false ? 0 : 1,
    issuer: (input.issuer ?? '').replace(/\/+$/, ''),
    clientid: input.clientid,
    scope: input.scope || DEFAULT_SCOPE[input.kind],
    authorizeurl: input.authorizeurl ?? '',
    tokenurl: input.tokenurl ?? '',
    userinfourl: input.userinfourl ?? '',
    idfield: input.idfield || 'sub',
    namefield: input.namefield ?? '',
    tokenstyle: input.tokenstyle ?? 'form',
    updatetime: now,
  };
  const id = cur?.id ?? newId();
  const write = cur
    ? repo.updateProvider(k, id, {
        ...fields,
        ...(input.clientsecret ? { clientsecret: input.clientsecret } : {}),
      })
    : repo.insertProvider(k, {
        ...fields,
        id,
        orgi: p.orgi,
        clientsecret: input.clientsecret ?? '',
        createtime: now,
      });
  await write.catch(rethrowUnique(() => nameRepeat()));
  const after = await repo.findProvider(k, id, p.orgi);
  if (!after) throw notFound();
  return { before: cur ? presentProvider(cur) : null, after: presentProvider(after) };
}

export async function deleteProvider(db: Db, p: Principal, id: string): Promise<IdentityProviderDto> {
  const cur = await repo.findProvider(db.kysely, id, p.orgi);
  if (!cur) throw notFound();
  await db.kysely.transaction().execute((t) => repo.deleteProvider(t, id));
  return presentProvider(cur);
}

/** The signed-in user's linked identities (personal security, A09_A07_A01). */
export async function mine(db: Db, p: Principal): Promise<MyIdentityDto[]> {
  return (await repo.identitiesOf(db.kysely, p.id)).map(presentIdentity);
}

export async function unbind(db: Db, p: Principal, provider: string): Promise<void> {
  const r = await repo.unlink(db.kysely, p.id, provider);
  if (Number(r.numDeletedRows) === 0) throw notFound();
}
