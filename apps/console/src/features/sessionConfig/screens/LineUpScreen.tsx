import { Form, Input, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { SESSION_TEXT_MAX } from '@kefu/protocol';
import { SessionConfigForm, rangeRule } from './SessionConfigForm';
import { TranslationsButton } from '../../texts/components/TranslationsButton';

const FIELDS = ['agentbusymsg', 'quene', 'quenetimeout', 'quenetimeoutmsg'] as const;

/** The timeout fields, greyed out while the queue timeout is off (rendered inside the form). */
function QueueTimeout() {
  const { t } = useTranslation();
  const on = Form.useWatch('quene', Form.useFormInstance()) as boolean | undefined;
  return (
    <>
      <Form.Item name="quenetimeout" label={t('sc.quenetimeout')} rules={[rangeRule(t, 10, 86_400)]}>
        <InputNumber
          min={10}
          max={86_400}
          precision={0}
          addonAfter={t('sc.seconds')}
          disabled={on === false}
        />
      </Form.Item>
      <Form.Item name="quenetimeoutmsg" label={t('sc.quenetimeoutmsg')}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 4 }}
          maxLength={SESSION_TEXT_MAX}
          showCount
          disabled={on === false}
        />
      </Form.Item>
    </>
  );
}

/** /setup/lineUp (A09_A03_A05): the position text and the queue timeout. */
export default function LineUpScreen() {
  const { t } = useTranslation();
  return (
    <SessionConfigForm
      section="lineUp"
      fields={FIELDS}
      title={t('sc.lineUp.title')}
      description={t('sc.lineUp.desc')}
      testid="sc-lineup"
      extra={
        <TranslationsButton
          scope="lineUp"
          labels={{ agentbusymsg: t('sc.agentbusymsg'), quenetimeoutmsg: t('sc.quenetimeoutmsg') }}
        />
      }
    >
      <Form.Item name="agentbusymsg" label={t('sc.agentbusymsg')} extra={t('sc.agentbusymsgHint')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={SESSION_TEXT_MAX} showCount />
      </Form.Item>
      <Form.Item name="quene" label={t('sc.quene')} valuePropName="checked">
        <Switch data-testid="sc-quene" />
      </Form.Item>
      <QueueTimeout />
    </SessionConfigForm>
  );
}
