/** Base URLs of the platforms' APIs; tests and the bench point them at the local fake platform. */
export interface ApiBases {
  wechat: string;
  wecom: string;
  douyin: string;
  baidu: string;
}

/** The public hosts, unless WECHAT_API_BASE, WECOM_API_BASE, DOUYIN_API_BASE or BAIDU_API_BASE say otherwise. */
export function apiBases(env: NodeJS.ProcessEnv = process.env): ApiBases {
  return {
    wechat: env.WECHAT_API_BASE || 'https://api.weixin.qq.com',
    wecom: env.WECOM_API_BASE || 'https://qyapi.weixin.qq.com',
    douyin: env.DOUYIN_API_BASE || 'https://open.douyin.com',
    baidu: env.BAIDU_API_BASE || 'https://openapi.baidu.com',
  };
}
