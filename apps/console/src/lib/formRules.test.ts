import { describe, expect, it } from 'vitest';
import type { FormInstance, RuleObject } from 'antd/es/form';
import { rules } from './formRules';

const run = async (r: ReturnType<typeof rules>['required'], v: unknown) => {
  const obj = (typeof r === 'function' ? r({} as FormInstance) : r) as RuleObject;
  try {
    await obj.validator?.(obj, v, () => undefined);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};

describe('form rules', () => {
  it('use the exact shared messages in Chinese', async () => {
    const zh = rules('zh');
    expect(await run(zh.required, '  ')).toBe('必填项不能为空');
    expect(await run(zh.phone, '12345')).toBe('手机格式错误');
    expect(await run(zh.email, 'a@b')).toBe('邮箱格式错误');
    expect(await run(zh.phone, '13800138000')).toBeNull();
    expect(await run(zh.email, '')).toBeNull();
  });
  it('translate them in English', async () => {
    expect(await run(rules('en').required, '')).toBe('Required field cannot be empty');
  });
});
