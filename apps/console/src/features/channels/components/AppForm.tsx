import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AESKEY_RE, PUSH_MODES, type ChannelAppDto } from '@kefu/protocol';
import { FormModal } from '../../../components/FormModal';
import { rules } from '../../../lib/formRules';
import type { AppFields } from '../api';
import { RobotField } from './RobotField';

/**
 * The credentials of a platform app: id, secret (blank keeps the stored one), push Token and
 * EncodingAESKey (blank: generated); official accounts and mini-programs also choose the encryption mode
 * (and mini-programs the data format), the skill group and the robot that answers first.
 */
export function AppForm(props: {
  open: boolean;
  title: string;
  editing: ChannelAppDto | null;
  idLabel: string;
  withMode?: boolean;
  withFormat?: boolean;
  skills?: Array<{ id: string; name: string }>;
  /** The robots to answer the account's users first (absent: no robot field). */
  robots?: Array<{ id: string; name: string }>;
  testId: string;
  onCancel: () => void;
  onSubmit: (v: AppFields) => Promise<unknown>;
}) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const e = props.editing;
  return (
    <FormModal<AppFields>
      open={props.open}
      title={props.title}
      testId={props.testId}
      initialValues={
        e
          ? {
              name: e.name,
              platformAppId: e.platformAppId,
              token: e.token,
              aeskey: e.aeskey,
              mode: e.mode,
              format: e.format,
              organ: e.organ,
              robotid: e.robotid,
            }
          : { mode: 'safe', format: 'xml' }
      }
      onCancel={props.onCancel}
      onSubmit={props.onSubmit}
    >
      <Form.Item name="name" label={t('channel.accountName')} rules={[r.required]}>
        <Input maxLength={50} data-testid={`${props.testId}-name`} />
      </Form.Item>
      <Form.Item name="platformAppId" label={props.idLabel} rules={[r.required]}>
        <Input maxLength={64} data-testid={`${props.testId}-appid`} />
      </Form.Item>
      <Form.Item name="secret" label={t('channel.secret')} rules={e ? [] : [r.required]}>
        <Input.Password
          autoComplete="new-password"
          placeholder={e?.secretSet ? t('channel.secretKeep') : ''}
          data-testid={`${props.testId}-secret`}
        />
      </Form.Item>
      <Form.Item name="token" label={t('channel.token')} extra={t('channel.tokenHint')}>
        <Input maxLength={64} data-testid={`${props.testId}-token`} />
      </Form.Item>
      <Form.Item
        name="aeskey"
        label={t('channel.aeskey')}
        extra={t('channel.aeskeyHint')}
        rules={[
          {
            validator: async (_, v: string | undefined) =>
              !v || AESKEY_RE.test(v) ? undefined : Promise.reject(new Error(t('invalid_field'))),
          },
        ]}
      >
        <Input maxLength={43} data-testid={`${props.testId}-aeskey`} />
      </Form.Item>
      {props.withMode && (
        <Form.Item name="mode" label={t('channel.mode')}>
          <Select options={PUSH_MODES.map((m) => ({ value: m, label: t(`channel.mode.${m}`) }))} />
        </Form.Item>
      )}
      {props.withFormat && (
        <Form.Item name="format" label={t('channel.format')}>
          <Select options={['xml', 'json'].map((f) => ({ value: f, label: f.toUpperCase() }))} />
        </Form.Item>
      )}
      {props.skills && (
        <Form.Item name="organ" label={t('channel.skillGroup')}>
          <Select
            allowClear
            placeholder={t('channel.noGroup')}
            options={props.skills.map((s) => ({ value: s.id, label: s.name }))}
          />
        </Form.Item>
      )}
      {props.robots && <RobotField robots={props.robots} testId={`${props.testId}-robot`} />}
    </FormModal>
  );
}
