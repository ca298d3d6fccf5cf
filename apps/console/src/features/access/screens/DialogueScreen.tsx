import { Alert, Col, Divider, Form, Input, Row, Switch, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto, DialogueConfig } from '@kefu/protocol';
import { AccessScoped } from '../components/AccessPicker';
import { useSection } from '../components/useSection';
import { ColorInput, SectionActions, colorRule, urlRule } from '../components/SectionActions';
import { useSession } from '../../../app/session';
import { TranslationsButton } from '../../texts/components/TranslationsButton';

function Preview({ v }: { v: Partial<DialogueConfig> }) {
  // The welcome shown is the prompts' one: the only welcome there is.
  const welcome = useSession((s) => s.sessionConfig?.sessionmsg);
  return (
    <div
      data-testid="dialogue-preview"
      style={{ border: '1px solid #eee', borderRadius: 8, overflow: 'hidden', marginTop: 8 }}
    >
      <div style={{ background: v.color, color: '#fff', padding: '10px 14px', fontWeight: 600 }}>
        {v.companyName || v.agentName}
      </div>
      <div
        style={{
          padding: 12,
          background: '#fafafa',
          minHeight: 160,
          display: 'flex',
          flexDirection: 'column',
          gap: 8,
        }}
      >
        <div
          style={{
            alignSelf: 'flex-start',
            background: '#fff',
            padding: '6px 10px',
            borderRadius: 8,
            maxWidth: '80%',
          }}
        >
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {v.agentName}
          </Typography.Text>
          <div style={{ whiteSpace: 'pre-wrap' }}>{welcome}</div>
        </div>
        <div
          style={{ alignSelf: 'flex-end', background: v.bubbleColor, padding: '6px 10px', borderRadius: 8 }}
        >
          你好
        </div>
      </div>
      {v.adEnabled && v.adText && (
        <div style={{ padding: '6px 12px', borderTop: '1px solid #eee', fontSize: 12 }}>{v.adText}</div>
      )}
    </div>
  );
}

function DialogueForm({ ap }: { ap: AccessPointDto }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DialogueConfig>();
  const s = useSection('profile', ap.id, form);
  const v = (Form.useWatch([], form) as DialogueConfig | undefined) ?? {};
  const color = [colorRule(t('error.invalid_field'))];
  const url = [urlRule(t('error.invalid_field'))];
  return (
    <Row gutter={24}>
      <Col xs={24} lg={14}>
        <Form<DialogueConfig>
          form={form}
          layout="vertical"
          onFinish={(x) => void s.save(x)}
          disabled={s.loading}
        >
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="color" label={t('dialogue.color')} rules={color}>
                <ColorInput testid="dialogue-color" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="bubbleColor" label={t('dialogue.bubbleColor')} rules={color}>
                <ColorInput />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="logo" label={t('dialogue.logo')} extra={t('dialogue.urlHint')} rules={url}>
            <Input data-testid="dialogue-logo" maxLength={500} />
          </Form.Item>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="agentName" label={t('dialogue.agentName')}>
                <Input data-testid="dialogue-agentName" maxLength={20} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="companyName" label={t('dialogue.companyName')}>
                <Input maxLength={50} />
              </Form.Item>
            </Col>
          </Row>
          <Alert
            type="info"
            showIcon
            data-testid="dialogue-welcome-where"
            style={{ marginBottom: 16 }}
            message={t('dialogue.welcomeHere')}
            action={
              <Link to="/setup/prompt" data-testid="dialogue-welcome-link">
                {t('dialogue.welcomeLink')}
              </Link>
            }
          />
          <Divider titlePlacement="start">{t('dialogue.ad')}</Divider>
          <Form.Item name="adEnabled" label={t('dialogue.adEnabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="adText" label={t('dialogue.adText')}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="adImage" label={t('dialogue.adImage')} rules={url}>
            <Input maxLength={500} />
          </Form.Item>
          <Form.Item name="adUrl" label={t('dialogue.adUrl')} rules={url}>
            <Input maxLength={500} />
          </Form.Item>
          <SectionActions
            testid="dialogue"
            onReset={() => s.reset(t('menu.dialogueWindow'))}
            extra={
              <TranslationsButton
                scope="dialogue"
                appid={ap.id}
                labels={{
                  companyName: t('dialogue.companyName'),
                  agentName: t('dialogue.agentName'),
                  adText: t('dialogue.adText'),
                }}
              />
            }
          />
        </Form>
      </Col>
      <Col xs={24} lg={10}>
        <Typography.Text type="secondary">{t('access.preview')}</Typography.Text>
        <Preview v={v} />
      </Col>
    </Row>
  );
}

/** /setup/dialogue: the chat window of an access point. */
export default function DialogueScreen() {
  const { t } = useTranslation();
  return (
    <AccessScoped testid="dialogue-settings-screen" title={t('menu.dialogueWindow')}>
      {(ap) => <DialogueForm key={ap.id} ap={ap} />}
    </AccessScoped>
  );
}
