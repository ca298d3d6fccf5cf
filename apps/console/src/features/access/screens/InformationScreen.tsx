import { Col, Divider, Form, Input, InputNumber, Row, Switch, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  INFO_FIELDS,
  LEAVEMSG_FIELDS,
  type AccessPointDto,
  type InformationConfig,
  type LeavemsgConfig,
} from '@kefu/protocol';
import { AccessScoped } from '../components/AccessPicker';
import { useSection } from '../components/useSection';
import { SectionActions } from '../components/SectionActions';

function InfoForm({ ap }: { ap: AccessPointDto }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<InformationConfig>();
  const s = useSection('gathering', ap.id, form);
  return (
    <Form<InformationConfig>
      form={form}
      layout="vertical"
      onFinish={(x) => void s.save(x)}
      disabled={s.loading}
    >
      <Form.Item name="enabled" label={t('information.enabled')} valuePropName="checked">
        <Switch data-testid="information-enabled" />
      </Form.Item>
      <Table
        size="small"
        pagination={false}
        rowKey="key"
        style={{ marginBottom: 16 }}
        dataSource={INFO_FIELDS.map((key) => ({ key }))}
        columns={[
          { title: t('information.field'), dataIndex: 'key', render: (k: string) => t(`information.${k}`) },
          {
            title: t('information.show'),
            render: (_, r) => (
              <Form.Item name={[r.key, 'enabled']} valuePropName="checked" noStyle>
                <Switch size="small" data-testid={`information-${r.key}-enabled`} />
              </Form.Item>
            ),
          },
          {
            title: t('information.required'),
            render: (_, r) => (
              <Form.Item name={[r.key, 'required']} valuePropName="checked" noStyle>
                <Switch size="small" data-testid={`information-${r.key}-required`} />
              </Form.Item>
            ),
          },
        ]}
      />
      <Form.Item name="rememberHours" label={t('information.rememberHours')}>
        <InputNumber min={0} max={720} precision={0} />
      </Form.Item>
      <SectionActions testid="information" onReset={() => s.reset(t('information.title'))} />
    </Form>
  );
}

function LeaveForm({ ap }: { ap: AccessPointDto }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LeavemsgConfig>();
  const s = useSection('leavemsg/config', ap.id, form);
  return (
    <Form<LeavemsgConfig> form={form} layout="vertical" onFinish={(x) => void s.save(x)} disabled={s.loading}>
      <Form.Item name="enabled" label={t('leavemsgCfg.enabled')} valuePropName="checked">
        <Switch data-testid="leavemsgcfg-enabled" />
      </Form.Item>
      <Form.Item name="notice" label={t('leavemsgCfg.notice')}>
        <Input.TextArea rows={3} maxLength={500} showCount />
      </Form.Item>
      <Table
        size="small"
        pagination={false}
        rowKey="key"
        style={{ marginBottom: 16 }}
        dataSource={LEAVEMSG_FIELDS.map((key) => ({ key }))}
        columns={[
          { title: t('information.field'), dataIndex: 'key', render: (k: string) => t(`leavemsgCfg.${k}`) },
          {
            title: t('information.show'),
            render: (_, r) => (
              <Form.Item name={['fields', r.key, 'show']} valuePropName="checked" noStyle>
                <Switch size="small" disabled={r.key === 'content'} />
              </Form.Item>
            ),
          },
          {
            title: t('information.required'),
            render: (_, r) => (
              <Form.Item name={['fields', r.key, 'required']} valuePropName="checked" noStyle>
                <Switch
                  size="small"
                  disabled={r.key === 'content'}
                  data-testid={`leavemsgcfg-${r.key}-required`}
                />
              </Form.Item>
            ),
          },
        ]}
      />
      <SectionActions testid="leavemsgcfg" onReset={() => s.reset(t('leavemsgCfg.title'))} />
    </Form>
  );
}

/** /setup/information: visitor information collection and the leave-message form of an access point. */
export default function InformationScreen() {
  const { t } = useTranslation();
  return (
    <AccessScoped testid="information-screen" title={t('menu.information')}>
      {(ap) => (
        <Row gutter={32} key={ap.id}>
          <Col xs={24} xl={12}>
            <Divider titlePlacement="start">{t('information.title')}</Divider>
            <InfoForm ap={ap} />
          </Col>
          <Col xs={24} xl={12}>
            <Divider titlePlacement="start">{t('leavemsgCfg.title')}</Divider>
            <LeaveForm ap={ap} />
          </Col>
        </Row>
      )}
    </AccessScoped>
  );
}
