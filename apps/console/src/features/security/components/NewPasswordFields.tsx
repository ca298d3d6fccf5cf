import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SecurityPolicy } from '@kefu/protocol';
import { rules } from '../../../lib/formRules';
import { PasswordStrength } from './PasswordStrength';

/**
 * The `password` and `confirm` items of a form that sets a new password: strength meter, the policy's
 * requirement, and the confirmation that must match (own password change, registration).
 */
export function NewPasswordFields(props: {
  label: string;
  confirmLabel: string;
  policy?: Pick<SecurityPolicy, 'minLength' | 'classes'>;
  testIds: { password: string; confirm: string };
}) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const password = (Form.useWatch('password', Form.useFormInstance()) as string | undefined) ?? '';
  const { policy } = props;
  return (
    <>
      <Form.Item
        name="password"
        label={props.label}
        rules={[r.required]}
        extra={
          <>
            <PasswordStrength password={password} />
            {policy && <div>{t('sec.policyHint', { min: policy.minLength, classes: policy.classes })}</div>}
          </>
        }
      >
        <Input.Password data-testid={props.testIds.password} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={props.confirmLabel}
        dependencies={['password']}
        rules={[
          r.required,
          ({ getFieldValue }) => ({
            validator: (_, v: string) =>
              !v || v === getFieldValue('password')
                ? Promise.resolve()
                : Promise.reject(new Error(t('security.mismatch'))),
          }),
        ]}
      >
        <Input.Password data-testid={props.testIds.confirm} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
