/**
 * Published test vectors of the WeChat message crypto (recomputed and kept here as data; sources: wechatpy
 * tests/test_utils.py, silenceper util/signature_test.go, node-webot wechat-crypto test/crypto.test.js, the
 * official mini-program message-push document) and a self-computed Douyin signature.
 */
export const SIGNATURE_VECTORS = [
  {
    source: 'wechatpy',
    parts: ['test', '1410685589', 'test'],
    expected: 'f21891de399b4e33a1a93c9a7b8a8fffb5a443ff',
  },
  { source: 'silenceper', parts: ['a', 'b', 'c'], expected: 'a9993e364706816aba3e25717850c26c9cd0d89d' },
  {
    source: 'node-webot',
    parts: ['RMNlACHlV5ThzfRlVS4D4', 'timestamp', 'nonce', 'encrypt'],
    expected: '8edac0945683c119ee71c9f6256d76c48aa08a96',
  },
  {
    source: 'mini-program GET handshake',
    parts: ['AAAAA', '1714036504', '1514711492'],
    expected: 'f464b24fc39322e44b38aa78f5edd27bd1441696',
  },
  {
    source: 'mini-program plaintext POST',
    parts: ['AAAAA', '1714037059', '486452656'],
    expected: '899cf89e464efb63f54ddac96b0a0a235f53aa78',
  },
] as const;

/** The GET handshake of vector 4 echoes this plaintext echostr unchanged. */
export const HANDSHAKE = {
  token: 'AAAAA',
  timestamp: '1714036504',
  nonce: '1514711492',
  signature: 'f464b24fc39322e44b38aa78f5edd27bd1441696',
  echostr: '4375120948345356249',
};

/** Safe-mode JSON push of the official document (vector 6). */
export const SAFE_PUSH = {
  token: 'AAAAA',
  aeskey: 'A'.repeat(43),
  appid: 'wxba5fad812f8e6fb9',
  timestamp: '1714112445',
  nonce: '415670741',
  openid: 'o9AgO5Kd5ggOC-bXrbNODIiE3bGY',
  encrypt:
    '+qdx1OKCy+5JPCBFWw70tm0fJGb2Jmeia4FCB7kao+/Q5c/ohsOzQHi8khUOb05JCpj0JB4RvQMkUyus8TPxLKJGQqcvZqzDpVzazhZv6JsXUnnR8XGT740XgXZUXQ7vJVnAG+tE8NUd4yFyjPy7GgiaviNrlCTj+l5kdfMuFUPpRSrfMZuMcp3Fn2Pede2IuQrKEYwKSqFIZoNqJ4M8EajAsjLY2km32IIjdf8YL/P50F7mStwntrA2cPDrM1kb6mOcfBgRtWygb3VIYnSeOBrebufAlr7F9mFUPAJGj04=',
  signature: '6c5c811b55cc85e0e1b54100749188c20beb3f5d',
  msgSignature: '046e02f8204d34f8ba5fa3b1db94908f3df2e9b3',
  random: 'a8eedb185eb2fecf',
  msgLen: 167,
  message:
    '{"ToUserName":"gh_97417a04a28d","FromUserName":"o9AgO5Kd5ggOC-bXrbNODIiE3bGY","CreateTime":1714112445,"MsgType":"event","Event":"debug_demo","debug_str":"hello world"}',
};

/** The encrypted reply of the same document (vector 7): 63 bytes of plaintext, one byte of padding. */
export const SAFE_REPLY = {
  aeskey: 'A'.repeat(43),
  appid: 'wxba5fad812f8e6fb9',
  random: '707722b803182950',
  message: '{"demo_resp":"good luck"}',
  token: 'AAAAA',
  timestamp: '1713424427',
  nonce: '415670741',
  encrypt: 'ELGduP2YcVatjqIS+eZbp80MNLoAUWvzzyJxgGzxZO/5sAvd070Bs6qrLARC9nVHm48Y4hyRbtzve1L32tmxSQ==',
  msgSignature: '1b9339964ed2e271e7c7b6ff2b0ef902fc94dea1',
};

/** Douyin (self-computed: nothing is published). */
export const DOUYIN_SIGNATURE = {
  secret: 'test_secret',
  body: '{"event":"verify_webhook","client_key":"abc","content":{"challenge":12345}}',
  expected: 'ff779a3b9e9daa2d1484d22450cd02e9fcfc4e62',
};

/** wechatpy's negative case: this nonce with vector 1's signature must not verify. */
export const WRONG_NONCE = {
  token: 'test',
  timestamp: '1410685589',
  nonce: '437374424',
  signature: SIGNATURE_VECTORS[0].expected,
};

/** A 64-bit MsgId that JSON.parse would round (to 4561255354251346000). */
export const BIG_MSGID = '4561255354251345929';
