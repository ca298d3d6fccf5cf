import { describe, expect, it } from 'vitest';
import { defaultConfig, normalizeConfig } from '../src/lib/config.js';

describe('widget config (GET /im/config data)', () => {
  it('absent or broken data gives the defaults', () => {
    for (const raw of [undefined, null, 'x', 42, [], {}])
      expect(normalizeConfig('demo', raw)).toEqual(defaultConfig('demo'));
  });

  it('maps the server sections and coerces field types', () => {
    const c = normalizeConfig('demo', {
      access: { id: 'demo', name: '演示网站', domain: 'example.com' },
      consult: { enabled: '1', icon: 'phone', color: '#0e7c66', text: '咨询我们', position: 'left-middle' },
      invite: {
        enabled: true,
        delay: '3',
        text: '你好',
        image: 'javascript:alert(1)',
        acceptText: '好',
        laterText: '不',
      },
      dialogue: {
        color: '#112233',
        companyName: '星河家居',
        logo: '/res/image.html?id=1',
        welcome: '欢迎',
        adEnabled: 1,
      },
      information: {
        enabled: 1,
        rememberHours: 2,
        phone: { enabled: true, required: true },
        email: { enabled: false, required: true },
      },
      faq: [{ id: 'f', question: '退货', answer: '七天' }, { answer: 'no question' }],
      satisfaction: {
        enabled: true,
        text: '请评价{agent}',
        levels: [{ value: 1, name: '好' }],
        opinions: [{ id: 'o1', name: '慢' }],
        comment: false,
      },
      leavemsg: { enabled: true, notice: '请留言', fields: { email: { show: true, required: 'true' } } },
    });
    expect(c.access.name).toBe('演示网站');
    expect(c.consult).toEqual({
      enabled: true,
      color: '#0e7c66',
      text: '咨询我们',
      position: 'left-middle',
      icon: 'phone',
    });
    expect(c.invite).toEqual({
      enabled: true,
      delay: 3,
      content: '你好',
      image: '',
      accept: '好',
      refuse: '不',
    });
    expect(c.dialogue).toMatchObject({
      title: '星河家居',
      color: '#112233',
      logo: '/res/image.html?id=1',
      welcome: '欢迎',
    });
    expect(c.dialogue.ad.enabled).toBe(true);
    expect(c.information.enabled).toBe(true);
    expect(c.information.remember).toBe(7200);
    expect(c.information.fields.phone).toEqual({ show: true, required: true });
    // A hidden field is never required.
    expect(c.information.fields.email).toEqual({ show: false, required: false });
    expect(c.information.fields.name).toEqual(defaultConfig('demo').information.fields.name);
    expect(c.faq).toEqual([{ title: '退货', content: '七天' }]);
    expect(c.satisfaction).toEqual({
      enabled: true,
      text: '请评价{agent}',
      levels: [{ value: '1', label: '好' }],
      items: [{ value: 'o1', label: '慢' }],
      comment: false,
    });
    expect(c.leavemsg.message).toBe('请留言');
    expect(c.leavemsg.fields.email).toEqual({ show: true, required: true });
    expect(c.leavemsg.fields.name).toEqual({ show: true, required: true });
  });

  it('rejects unsafe colours, unknown positions and icons', () => {
    const c = normalizeConfig('a', {
      consult: { color: 'red;background:url(x)', position: 'top', icon: 'x' },
    });
    expect(c.consult.color).toBe('#2C68FF');
    expect(c.consult.position).toBe('right-bottom');
    expect(c.consult.icon).toBe('chat');
  });
});
