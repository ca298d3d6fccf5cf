/** Third-party login providers (migration 0015). */
export interface IdentityProviderTable {
  id: string;
  orgi: string;
  name: string;
  kind: string;
  enabled: number;
  issuer: string;
  clientid: string;
  clientsecret: string;
  scope: string;
  authorizeurl: string;
  tokenurl: string;
  userinfourl: string;
  idfield: string;
  tokenstyle: string;
  createtime: number;
  updatetime: number;
}

export interface IdentityTables {
  identity_provider: IdentityProviderTable;
}
