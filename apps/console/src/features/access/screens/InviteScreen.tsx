import { Form, Input, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto, InviteConfig } from '@kefu/protocol';
import { AccessScoped } from '../components/AccessPicker';
import { useSection } from '../components/useSection';
import { SectionActions, urlRule } from '../components/SectionActions';
import { TranslationsButton } from '../../texts/components/TranslationsButton';

function InviteForm({ ap }: { ap: AccessPointDto }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<InviteConfig>();
  const s = useSection('invote', ap.id, form);
  return (
    <Form<InviteConfig>
      form={form}
      layout="vertical"
      style={{ maxWidth: 560 }}
      onFinish={(x) => void s.save(x)}
      disabled={s.loading}
    >
      <Form.Item name="enabled" label={t('invite.enabled')} valuePropName="checked">
        <Switch data-testid="invite-enabled" />
      </Form.Item>
      <Form.Item name="delay" label={t('invite.delay')}>
        <InputNumber data-testid="invite-delay" min={0} max={3600} precision={0} />
      </Form.Item>
      <Form.Item name="text" label={t('invite.text')}>
        <Input.TextArea data-testid="invite-text" rows={3} maxLength={200} showCount />
      </Form.Item>
      <Form.Item
        name="image"
        label={t('invite.image')}
        extra={t('dialogue.urlHint')}
        rules={[urlRule(t('error.invalid_field'))]}
      >
        <Input data-testid="invite-image" maxLength={500} />
      </Form.Item>
      <Form.Item name="acceptText" label={t('invite.acceptText')}>
        <Input maxLength={10} style={{ maxWidth: 200 }} />
      </Form.Item>
      <Form.Item name="laterText" label={t('invite.laterText')}>
        <Input maxLength={10} style={{ maxWidth: 200 }} />
      </Form.Item>
      <SectionActions
        testid="invite"
        onReset={() => s.reset(t('menu.invite'))}
        extra={
          <TranslationsButton
            scope="invite"
            appid={ap.id}
            labels={{
              text: t('invite.text'),
              acceptText: t('invite.acceptText'),
              laterText: t('invite.laterText'),
            }}
          />
        }
      />
    </Form>
  );
}

/** /setup/invite: the invitation popup of an access point. */
export default function InviteScreen() {
  const { t } = useTranslation();
  return (
    <AccessScoped testid="invite-screen" title={t('menu.invite')}>
      {(ap) => <InviteForm key={ap.id} ap={ap} />}
    </AccessScoped>
  );
}
