import { Divider, Form, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { SessionConfigForm, rangeRule } from './SessionConfigForm';
import { TranslateProviderCard } from '../../translate/components/TranslateProviderCard';

const FIELDS = [
  'transtip',
  'transtiptimeout',
  'msgtranslate',
  'sessiontimeout',
  'timeout',
  'resessiontimeout',
  'retimeout',
  'agentreplaytimeout',
  'agenttimeout',
  'prompttone',
] as const;

function Seconds({ name, label, min, max }: { name: string; label: string; min: number; max: number }) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={label} rules={[rangeRule(t, min, max)]}>
      <InputNumber
        min={min}
        max={max}
        precision={0}
        addonAfter={t('sc.seconds')}
        data-testid={`sc-${name}`}
      />
    </Form.Item>
  );
}

function Flag({ name, label, extra }: { name: string; label: string; extra?: string }) {
  return (
    <Form.Item name={name} label={label} valuePropName="checked" extra={extra}>
      <Switch data-testid={`sc-${name}`} />
    </Form.Item>
  );
}

/** /setup/other (A09_A03_A11): transfer prompt, translation (the flag and its provider), timers, sounds. */
export default function OtherScreen() {
  const { t } = useTranslation();
  return (
    <>
      <SessionConfigForm section="other" fields={FIELDS} title={t('sc.other.title')} testid="sc-other">
        <Divider titlePlacement="start" plain>
          {t('sc.transfer')}
        </Divider>
        <Flag name="transtip" label={t('sc.transtip')} />
        <Seconds name="transtiptimeout" label={t('sc.transtiptimeout')} min={1} max={60} />
        <Divider titlePlacement="start" plain>
          {t('sc.timers')}
        </Divider>
        <Flag name="sessiontimeout" label={t('sc.sessiontimeout')} />
        <Seconds name="timeout" label={t('sc.timeout')} min={10} max={86_400} />
        <Flag name="resessiontimeout" label={t('sc.resessiontimeout')} />
        <Seconds name="retimeout" label={t('sc.retimeout')} min={10} max={86_400} />
        <Flag name="agentreplaytimeout" label={t('sc.agentreplaytimeout')} />
        <Seconds name="agenttimeout" label={t('sc.agenttimeout')} min={10} max={86_400} />
        <Divider />
        <Flag name="msgtranslate" label={t('sc.msgtranslate')} extra={t('sc.msgtranslateHint')} />
        <Flag name="prompttone" label={t('sc.prompttone')} />
      </SessionConfigForm>
      <TranslateProviderCard />
    </>
  );
}
