import { describe, expect, it } from 'vitest';
import { defaultConfig, normalizeConfig } from '../src/lib/config.js';

describe('widget config', () => {
  it('absent or broken data gives the defaults', () => {
    for (const raw of [undefined, null, 'x', 42, [], {}])
      expect(normalizeConfig('demo', raw)).toEqual(defaultConfig('demo'));
  });

  it('reads the sections and coerces field types', () => {
    const c = normalizeConfig('demo', {
      access: { id: 'demo', name: '演示网站', domain: 'example.com' },
      consult: {
        enabled: '1',
        color: '#0e7c66',
        text: '咨询我们',
        position: 'left-middle',
        icon: 'javascript:alert(1)',
      },
      invite: { enabled: true, delay: '3', title: '你好' },
      dialogue: { title: '星河客服', logo: 'https://cdn.example/logo.png', width: 5000 },
      information: {
        enabled: 1,
        remember: 60,
        fields: { phone: { show: true, required: true }, email: { show: false, required: true } },
      },
      faq: [{ title: '退货', content: '七天' }, { content: 'no title' }],
      satisfaction: { levels: [{ value: 1, label: '好' }], items: [] },
      leavemsg: { fields: { email: { show: true, required: 'true' } } },
      skills: [
        { id: 'g1', name: '售前' },
        { id: '', name: 'x' },
      ],
    });
    expect(c.access.name).toBe('演示网站');
    expect(c.consult).toEqual({
      enabled: true,
      color: '#0e7c66',
      text: '咨询我们',
      position: 'left-middle',
      icon: '',
    });
    expect(c.invite).toMatchObject({ enabled: true, delay: 3, title: '你好' });
    expect(c.dialogue).toMatchObject({
      title: '星河客服',
      logo: 'https://cdn.example/logo.png',
      width: 1200,
      color: '#0e7c66',
    });
    expect(c.information.enabled).toBe(true);
    expect(c.information.remember).toBe(60);
    expect(c.information.fields.phone).toEqual({ show: true, required: true });
    // A hidden field can never be required.
    expect(c.information.fields.email).toEqual({ show: false, required: false });
    expect(c.information.fields.name).toEqual(defaultConfig('demo').information.fields.name);
    expect(c.faq).toEqual([{ title: '退货', content: '七天' }]);
    expect(c.satisfaction.levels).toEqual([{ value: '1', label: '好' }]);
    expect(c.satisfaction.items).toEqual([]);
    expect(c.leavemsg.fields.email).toEqual({ show: true, required: true });
    expect(c.skills).toEqual([{ id: 'g1', name: '售前' }]);
  });

  it('rejects unsafe colours and unknown positions', () => {
    const c = normalizeConfig('a', { consult: { color: 'red;background:url(x)', position: 'top' } });
    expect(c.consult.color).toBe('#1677ff');
    expect(c.consult.position).toBe('right-bottom');
  });
});
