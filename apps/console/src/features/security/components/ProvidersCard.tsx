import { useState } from 'react';
import { Button, Card, Form, Input, Radio, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  IDENTITY_KINDS,
  OAUTH2_PRESETS,
  THIRD_LOGIN_PATH,
  TOKEN_STYLES,
  type IdentityKind,
  type IdentityProviderDto,
  type OAuth2PresetName,
} from '@kefu/protocol';
import { FormModal } from '../../../components/FormModal';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { rules } from '../../../lib/formRules';
import { notify } from '../../../lib/notify';
import { securityApi } from '../api';
import { useSession } from '../../../app/session';

type Fields = Omit<IdentityProviderDto, 'id' | 'hassecret' | 'createtime'> & { clientsecret?: string };

const NEW: Partial<Fields> = {
  kind: 'oidc',
  enabled: true,
  tokenstyle: 'form',
  idfield: 'sub',
  namefield: '',
};
const PRESETS = Object.keys(OAUTH2_PRESETS) as OAuth2PresetName[];

/** Corporate security: the OpenID Connect / OAuth2 providers staff may log in with (A09_A07_A02). */
export function ProvidersCard() {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const list = useQuery({
    queryKey: ['identity-providers'],
    queryFn: ({ signal }) => securityApi.providers(signal),
  });
  const [editing, setEditing] = useState<IdentityProviderDto | 'new' | null>(null);
  const current = editing === 'new' || editing === null ? null : editing;
  const redirect = `${window.location.origin}${THIRD_LOGIN_PATH}`;
  // A tenant other than the default one offers its providers on its own login address.
  const orgi = useSession((s) => s.info?.user.orgi);
  const loginUrl = `${window.location.origin}/login${orgi ? `?orgi=${encodeURIComponent(orgi)}` : ''}`;

  const columns: ColumnsType<IdentityProviderDto> = [
    { title: t('idp.name'), dataIndex: 'name' },
    { title: t('idp.kind'), dataIndex: 'kind', width: 150, render: (k: IdentityKind) => t(`idp.kind.${k}`) },
    {
      title: t('idp.issuer'),
      render: (_, p) => (
        <Typography.Text ellipsis style={{ maxWidth: 260 }}>
          {p.kind === 'oidc' ? p.issuer : p.authorizeurl}
        </Typography.Text>
      ),
    },
    {
      title: t('idp.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean) => (v ? <Tag color="green">{t('idp.enabled')}</Tag> : <Tag>—</Tag>),
    },
    {
      title: t('common.actions'),
      width: 140,
      render: (_, p) => (
        <>
          <EditLink onClick={() => setEditing(p)} testId={`idp-edit-${p.name}`} />
          <DeleteLink
            name={p.name}
            onDelete={() => securityApi.deleteProvider(p.id)}
            onDone={() => void list.refetch()}
            testId={`idp-delete-${p.name}`}
          />
        </>
      ),
    },
  ];

  const save = async (v: Fields) => {
    await securityApi.saveProvider({ ...v, id: current?.id });
    notify.success(t('idp.saved'));
    setEditing(null);
    await list.refetch();
  };

  return (
    <Card
      title={t('idp.title')}
      style={{ maxWidth: 860 }}
      data-testid="idp-card"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="idp-new">
          {t('idp.new')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('idp.desc')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('idp.redirect')}
        <Typography.Text code copyable data-testid="idp-redirect">
          {redirect}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Paragraph>
        {t('idp.loginUrl')}
        <Typography.Text code copyable data-testid="idp-login-url">
          {loginUrl}
        </Typography.Text>
      </Typography.Paragraph>
      <Table<IdentityProviderDto>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: t('idp.empty') }}
        data-testid="idp-table"
      />
      <FormModal<Fields>
        open={editing !== null}
        title={t(current ? 'idp.edit' : 'idp.new')}
        initialValues={current ? { ...current, clientsecret: '' } : NEW}
        onCancel={() => setEditing(null)}
        onSubmit={save}
        width={620}
        testId="idp-form"
      >
        {(form) => (
          <>
            <Space size="large" wrap>
              <Form.Item name="name" label={t('idp.name')} rules={[r.required]}>
                <Input maxLength={50} style={{ width: 200 }} data-testid="idp-name" />
              </Form.Item>
              <Form.Item name="kind" label={t('idp.kind')}>
                <Radio.Group
                  options={IDENTITY_KINDS.map((k) => ({ value: k, label: t(`idp.kind.${k}`) }))}
                  optionType="button"
                />
              </Form.Item>
              <Form.Item name="enabled" label={t('idp.enabled')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Space>
            <Form.Item noStyle dependencies={['kind']}>
              {() =>
                form.getFieldValue('kind') === 'oidc' ? (
                  <Form.Item
                    name="issuer"
                    label={t('idp.issuer')}
                    extra={t('idp.issuerHint')}
                    rules={[r.required]}
                  >
                    <Input placeholder="https://sso.example.com/realms/kefu" data-testid="idp-issuer" />
                  </Form.Item>
                ) : (
                  <>
                    <Form.Item label={t('idp.preset')} extra={t('idp.presetHint')}>
                      <Select<OAuth2PresetName>
                        style={{ width: 200 }}
                        placeholder={t('idp.preset')}
                        options={PRESETS.map((k) => ({ value: k, label: t(`idp.preset.${k}`) }))}
                        onChange={(k) => form.setFieldsValue({ ...OAUTH2_PRESETS[k] })}
                        data-testid="idp-preset"
                      />
                    </Form.Item>
                    <Form.Item name="authorizeurl" label={t('idp.authorizeurl')} rules={[r.required]}>
                      <Input data-testid="idp-authorizeurl" />
                    </Form.Item>
                    <Form.Item name="tokenurl" label={t('idp.tokenurl')} rules={[r.required]}>
                      <Input data-testid="idp-tokenurl" />
                    </Form.Item>
                    <Form.Item name="userinfourl" label={t('idp.userinfourl')} rules={[r.required]}>
                      <Input data-testid="idp-userinfourl" />
                    </Form.Item>
                    <Space size="large" wrap>
                      <Form.Item name="idfield" label={t('idp.idfield')} extra={t('idp.idfieldHint')}>
                        <Input style={{ width: 240 }} data-testid="idp-idfield" />
                      </Form.Item>
                      <Form.Item name="namefield" label={t('idp.namefield')} extra={t('idp.namefieldHint')}>
                        <Input style={{ width: 240 }} data-testid="idp-namefield" />
                      </Form.Item>
                      <Form.Item name="tokenstyle" label={t('idp.tokenstyle')}>
                        <Select
                          style={{ width: 180 }}
                          options={TOKEN_STYLES.map((s) => ({ value: s, label: t(`idp.tokenstyle.${s}`) }))}
                        />
                      </Form.Item>
                    </Space>
                  </>
                )
              }
            </Form.Item>
            <Form.Item name="clientid" label={t('idp.clientid')} rules={[r.required]}>
              <Input data-testid="idp-clientid" />
            </Form.Item>
            <Form.Item
              name="clientsecret"
              label={t('idp.clientsecret')}
              extra={current?.hassecret ? t('idp.secretKeep') : undefined}
            >
              <Input.Password autoComplete="new-password" data-testid="idp-clientsecret" />
            </Form.Item>
            <Form.Item name="scope" label={t('idp.scope')}>
              <Input placeholder="openid profile email" data-testid="idp-scope" />
            </Form.Item>
          </>
        )}
      </FormModal>
    </Card>
  );
}
