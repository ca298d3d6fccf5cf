import { Col, Form, Input, Radio, Row, Switch, Typography } from 'antd';
import { CommentOutlined, CustomerServiceOutlined, MessageOutlined, PhoneOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CONSULT_ICONS, CONSULT_POSITIONS, type AccessPointDto, type ConsultConfig } from '@kefu/protocol';
import { AccessScoped } from '../components/AccessPicker';
import { useSection } from '../components/useSection';
import { ColorInput, SectionActions, colorRule } from '../components/SectionActions';
import { TranslationsButton } from '../../texts/components/TranslationsButton';

export const ICONS = {
  chat: <CommentOutlined />,
  service: <CustomerServiceOutlined />,
  phone: <PhoneOutlined />,
  message: <MessageOutlined />,
} as const;

function ConsultForm({ ap }: { ap: AccessPointDto }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ConsultConfig>();
  const s = useSection('consultationIcon', ap.id, form);
  const v = Form.useWatch([], form) as ConsultConfig | undefined;
  const pos = v?.position ?? 'right-bottom';
  return (
    <Row gutter={24}>
      <Col xs={24} lg={14}>
        <Form<ConsultConfig>
          form={form}
          layout="vertical"
          onFinish={(x) => void s.save(x)}
          disabled={s.loading}
        >
          <Form.Item name="enabled" label={t('consult.enabled')} valuePropName="checked">
            <Switch data-testid="consult-enabled" />
          </Form.Item>
          <Form.Item name="icon" label={t('consult.icon')}>
            <Radio.Group
              optionType="button"
              options={CONSULT_ICONS.map((i) => ({
                value: i,
                label: (
                  <>
                    {ICONS[i]} {t(`consult.icon.${i}`)}
                  </>
                ),
              }))}
            />
          </Form.Item>
          <Form.Item name="color" label={t('consult.color')} rules={[colorRule(t('error.invalid_field'))]}>
            <ColorInput testid="consult-color" />
          </Form.Item>
          <Form.Item name="text" label={t('consult.text')}>
            <Input data-testid="consult-text" maxLength={20} style={{ maxWidth: 320 }} />
          </Form.Item>
          <Form.Item name="position" label={t('consult.position')}>
            <Radio.Group
              options={CONSULT_POSITIONS.map((p) => ({ value: p, label: t(`consult.position.${p}`) }))}
            />
          </Form.Item>
          <SectionActions
            testid="consult"
            onReset={() => s.reset(t('menu.consulting'))}
            extra={<TranslationsButton scope="consult" appid={ap.id} labels={{ text: t('consult.text') }} />}
          />
        </Form>
      </Col>
      <Col xs={24} lg={10}>
        <Typography.Text type="secondary">{t('access.preview')}</Typography.Text>
        <div
          data-testid="consult-preview"
          style={{
            position: 'relative',
            height: 260,
            marginTop: 8,
            border: '1px dashed #d9d9d9',
            borderRadius: 8,
            background: '#fafafa',
          }}
        >
          {v?.enabled !== false && (
            <div
              style={{
                position: 'absolute',
                [pos.startsWith('right') ? 'right' : 'left']: 12,
                ...(pos.endsWith('bottom') ? { bottom: 12 } : { top: '50%', transform: 'translateY(-50%)' }),
                background: v?.color ?? '#2C68FF',
                color: '#fff',
                borderRadius: 20,
                padding: '8px 14px',
                display: 'flex',
                gap: 6,
                alignItems: 'center',
                boxShadow: '0 2px 8px rgba(0,0,0,.15)',
              }}
            >
              {ICONS[v?.icon ?? 'chat']}
              <span>{v?.text}</span>
            </div>
          )}
        </div>
      </Col>
    </Row>
  );
}

/** /setup/consulting: the consult icon of an access point. */
export default function ConsultingScreen() {
  const { t } = useTranslation();
  return (
    <AccessScoped testid="consulting-screen" title={t('menu.consulting')}>
      {(ap) => <ConsultForm key={ap.id} ap={ap} />}
    </AccessScoped>
  );
}
