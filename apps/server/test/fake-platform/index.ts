import { FakeServer } from './server.js';
import { FakeWecom } from './wecom.js';
import { FakeWechat } from './wechat.js';
import { FakeDouyin } from './douyin.js';
import { FakeBaidu } from './baidu.js';

export { FakeServer } from './server.js';
export { FakeWecom } from './wecom.js';
export { FakeWechat } from './wechat.js';
export { FakeDouyin } from './douyin.js';
export { FakeBaidu } from './baidu.js';

/** The whole fake platform, started on loopback: its base URLs go into the app's config. */
export async function startFakePlatform(): Promise<{
  server: FakeServer;
  wecom: FakeWecom;
  wechat: FakeWechat;
  douyin: FakeDouyin;
  baidu: FakeBaidu;
  bases: { wechat: string; wecom: string; douyin: string; baidu: string };
  stop(): Promise<void>;
}> {
  const server = new FakeServer();
  const wecom = new FakeWecom(server);
  const wechat = new FakeWechat(server);
  const douyin = new FakeDouyin(server);
  const baidu = new FakeBaidu(server);
  const url = await server.start();
  return {
    server,
    wecom,
    wechat,
    douyin,
    baidu,
    bases: { wechat: `${url}/wechat`, wecom: `${url}/wecom`, douyin: `${url}/douyin`, baidu: `${url}/baidu` },
    stop: () => server.stop(),
  };
}
