import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { SESSION_TEXT_MAX } from '@kefu/protocol';
import { SessionConfigForm } from './SessionConfigForm';
import { TranslationsButton } from '../../texts/components/TranslationsButton';

const FIELDS = [
  'servicename',
  'sessionmsg',
  'successmsg',
  'noagentmsg',
  'finessmsg',
  'enabletransmsg',
  'transmsg',
  'timeoutmsg',
  'retimeoutmsg',
  'agenttimeoutmsg',
  'tipagent',
  'tipagenttitle',
  'tipagenticon',
] as const;

const TEXTS = [
  'sessionmsg',
  'successmsg',
  'noagentmsg',
  'finessmsg',
  'transmsg',
  'timeoutmsg',
  'retimeoutmsg',
  'agenttimeoutmsg',
] as const;

/** /setup/prompt (A09_A03_A01): the visitor-facing texts and the agent tip. */
export default function PromptScreen() {
  const { t } = useTranslation();
  return (
    <SessionConfigForm
      section="prompt"
      fields={FIELDS}
      title={t('sc.prompt.title')}
      description={t('sc.prompt.desc')}
      testid="sc-prompt"
      extra={
        <TranslationsButton
          scope="prompt"
          labels={Object.fromEntries(['servicename', ...TEXTS].map((k) => [k, t(`sc.${k}`)]))}
        />
      }
    >
      <Form.Item name="servicename" label={t('sc.servicename')}>
        <Input maxLength={50} style={{ maxWidth: 240 }} />
      </Form.Item>
      {TEXTS.map((k) => (
        <div key={k}>
          {k === 'transmsg' && (
            <Form.Item name="enabletransmsg" label={t('sc.enabletransmsg')} valuePropName="checked">
              <Switch />
            </Form.Item>
          )}
          <Form.Item name={k} label={t(`sc.${k}`)}>
            <Input.TextArea
              data-testid={`sc-${k}`}
              autoSize={{ minRows: 1, maxRows: 4 }}
              maxLength={SESSION_TEXT_MAX}
              showCount
            />
          </Form.Item>
        </div>
      ))}
      <Form.Item name="tipagent" label={t('sc.tipagent')} valuePropName="checked">
        <Switch data-testid="sc-tipagent" />
      </Form.Item>
      <Form.Item name="tipagenttitle" label={t('sc.tipagenttitle')}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="tipagenticon" label={t('sc.tipagenticon')}>
        <Input maxLength={255} placeholder="https://" />
      </Form.Item>
    </SessionConfigForm>
  );
}
