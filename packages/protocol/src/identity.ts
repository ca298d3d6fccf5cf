/**
 * Self-registration (/register) and third-party login (/thirdLogin, /thirdLogin/bind): public calls
 * outside /api, the per-tenant provider settings (corporate security, A09_A07_A02) and the user's own
 * linked identities (personal security, A09_A07_A01).
 */
export const IDENTITY_API = {
  /** GET: what the login page offers (registration switch, providers of the tenant). */
  options: '/tokens/options',
  register: '/tokens/register',
  /** POST {provider}: the provider's authorization URL (state, nonce, PKCE kept by the server). */
  thirdStart: '/tokens/third/start',
  /** POST {code, state}: a session, a login step, or a binding ticket. */
  thirdCallback: '/tokens/third/callback',
  /** POST {ticket, username, password, code?}: links the identity to that account and logs in. */
  thirdBind: '/tokens/third/bind',
  providers: '/api/security/identity/providers',
  providerSave: '/api/security/identity/providers/save',
  providerDelete: '/api/security/identity/providers/delete',
  mine: '/api/security/identity/mine',
  unbind: '/api/security/identity/unbind',
} as const;

/** The console page the provider sends the browser back to (spec public route /thirdLogin). */
export const THIRD_LOGIN_PATH = '/thirdLogin';

/** oidc: discovery, id_token checked against JWKS. oauth2: code → access token → userinfo (WeCom/DingTalk/Feishu-shaped). */
export const IDENTITY_KINDS = ['oidc', 'oauth2'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/**
 * How the code is exchanged: an RFC 6749 form post; the same fields as JSON (Feishu's v2 token call);
 * DingTalk's camel-case JSON (clientId, clientSecret, code, grantType) with the user token sent to userinfo
 * in `x-acs-dingtalk-access-token`; WeCom's corporation token (token URL called with corpid = client id and
 * corpsecret = secret, cached) given with the code to the userinfo URL.
 */
export const TOKEN_STYLES = ['form', 'json', 'dingtalk', 'wecom'] as const;
export type TokenStyle = (typeof TOKEN_STYLES)[number];

export interface IdentityProviderDto {
  id: string;
  name: string;
  kind: IdentityKind;
  enabled: boolean;
  /** oidc: the issuer whose /.well-known/openid-configuration is read. */
  issuer: string;
  clientid: string;
  /** Whether a client secret is stored (the secret itself is never sent back). */
  hassecret: boolean;
  scope: string;
  /** oauth2 (or to override discovery): endpoints. */
  authorizeurl: string;
  tokenurl: string;
  userinfourl: string;
  /** Dotted path of the user id in the userinfo answer (oauth2), e.g. `data.open_id`. */
  idfield: string;
  /** Dotted path of the display name in the userinfo answer (oauth2); '' tries name, nickname, email. */
  namefield: string;
  tokenstyle: TokenStyle;
  createtime: number;
}

export interface LoginOptionsDto {
  register: boolean;
  providers: Array<{ id: string; name: string }>;
}

/** What the callback answers when the identity is not linked yet: go to /thirdLogin/bind with this ticket. */
export interface BindPendingDto {
  bind: string;
  provider: string;
  /** A name or e-mail from the provider, to help the user recognise the identity. */
  display: string;
}

export interface MyIdentityDto {
  provider: string;
  providername: string;
  subject: string;
  createtime: number;
}

/** Endpoints and fields an OAuth2 preset fills in the provider form (the admin still supplies id and secret). */
export interface OAuth2Preset {
  authorizeurl: string;
  tokenurl: string;
  userinfourl: string;
  scope: string;
  idfield: string;
  namefield: string;
  tokenstyle: TokenStyle;
}

/**
 * Starting points for enterprise IMs (docs/operations.md, "Third-party login"): taken from the platforms'
 * public documentation at the time of writing; the administrator checks them against the platform's
 * current docs. Feishu follows the generic flow; DingTalk and WeCom have token styles of their own.
 */
export const OAUTH2_PRESETS = {
  feishu: {
    authorizeurl: 'https://accounts.feishu.cn/open-apis/authen/v1/authorize',
    tokenurl: 'https://open.feishu.cn/open-apis/authen/v2/oauth/token',
    userinfourl: 'https://open.feishu.cn/open-apis/authen/v1/user_info',
    scope: '',
    idfield: 'data.open_id',
    namefield: 'data.name',
    tokenstyle: 'json',
  },
  dingtalk: {
    authorizeurl: 'https://login.dingtalk.com/oauth2/auth',
    tokenurl: 'https://api.dingtalk.com/v1.0/oauth2/userAccessToken',
    userinfourl: 'https://api.dingtalk.com/v1.0/contact/users/me',
    scope: 'openid',
    idfield: 'unionId',
    namefield: 'nick',
    tokenstyle: 'dingtalk',
  },
  wecom: {
    authorizeurl: 'https://login.work.weixin.qq.com/wwlogin/sso/login?login_type=CorpApp&agentid=AGENTID',
    tokenurl: 'https://qyapi.weixin.qq.com/cgi-bin/gettoken',
    userinfourl: 'https://qyapi.weixin.qq.com/cgi-bin/auth/getuserinfo',
    scope: 'snsapi_base',
    idfield: 'userid',
    namefield: '',
    tokenstyle: 'wecom',
  },
} as const satisfies Record<string, OAuth2Preset>;
export type OAuth2PresetName = keyof typeof OAUTH2_PRESETS;

export const REGISTER_LIMITS = { company: 50 } as const;
