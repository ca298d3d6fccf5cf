/** Third-party login providers (migration 0015; namefield 0014). */
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
  /** Dotted path of the display name in an OAuth2 userinfo ('' = name, nickname, email…). */
  namefield: string;
  tokenstyle: string;
  createtime: number;
  updatetime: number;
}

export interface IdentityTables {
  identity_provider: IdentityProviderTable;
}
