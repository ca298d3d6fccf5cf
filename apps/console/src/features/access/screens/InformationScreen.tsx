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
import { TranslationsButton } from '../../texts/components/TranslationsButton';

interface SwitchCell {
  name: string[];
  testid?: string;
}

/**
 * The field table of a visitor form: one row a field, with its "show" and "required" switches bound to
 * the surrounding form (a `locked` field's switches cannot be changed).
 */
function FieldSwitches(props: {
  fields: readonly string[];
  label: (key: string) => string;
  show: (key: string) => SwitchCell;
  required: (key: string) => SwitchCell;
  locked?: (key: string) => boolean;
}) {
  const { t } = useTranslation();
  const cell = (c: SwitchCell, key: string) => (
    <Form.Item name={c.name} valuePropName="checked" noStyle>
      <Switch size="small" disabled={props.locked?.(key)} data-testid={c.testid} />
    </Form.Item>
  );
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="key"
      style={{ marginBottom: 16 }}
      dataSource={props.fields.map((key) => ({ key }))}
      columns={[
        { title: t('information.field'), dataIndex: 'key', render: (k: string) => props.label(k) },
        { title: t('information.show'), render: (_, r) => cell(props.show(r.key), r.key) },
        { title: t('information.required'), render: (_, r) => cell(props.required(r.key), r.key) },
      ]}
    />
  );
}

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
      <FieldSwitches
        fields={INFO_FIELDS}
        label={(k) => t(`information.${k}`)}
        show={(k) => ({ name: [k, 'enabled'], testid: `information-${k}-enabled` })}
        required={(k) => ({ name: [k, 'required'], testid: `information-${k}-required` })}
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
      <FieldSwitches
        fields={LEAVEMSG_FIELDS}
        label={(k) => t(`leavemsgCfg.${k}`)}
        show={(k) => ({ name: ['fields', k, 'show'] })}
        required={(k) => ({ name: ['fields', k, 'required'], testid: `leavemsgcfg-${k}-required` })}
        locked={(k) => k === 'content'}
      />
      <SectionActions
        testid="leavemsgcfg"
        onReset={() => s.reset(t('leavemsgCfg.title'))}
        extra={
          <TranslationsButton scope="leavemsg" appid={ap.id} labels={{ notice: t('leavemsgCfg.notice') }} />
        }
      />
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
