import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  QRCode,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChannelAppDto, SnsAccountDto } from '@kefu/protocol';
import { DataTable } from '../../../components/DataTable';
import { FormModal } from '../../../components/FormModal';
import { ConfirmLink, DeleteLink } from '../../../components/RowActions';
import { useList } from '../../../components/useList';
import { rules } from '../../../lib/formRules';
import { notify } from '../../../lib/notify';
import { skillList } from '../../section/api';
import { kfApi, snsApi } from '../api';
import { AppForm } from '../components/AppForm';
import { CallbackFields } from '../components/CallbackFields';
import { ImrModal } from '../components/ImrModal';
import { RobotCell } from '../components/RobotCell';
import { RobotField } from '../components/RobotField';
import { robotApi } from '../../robot/api';

const id = 'wechat';

/** /setup/wechat (A09_A01_A02): WeChat customer service — the corp's credentials and callback, its KF accounts. */
export default function WechatScreen() {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const qc = useQueryClient();
  const cb = useQuery({ queryKey: ['wechat-callback'], queryFn: () => kfApi.callback().catch(() => null) });
  const skills = useQuery({ queryKey: ['skillList'], queryFn: ({ signal }) => skillList(signal) });
  const robots = useQuery({ queryKey: ['robots'], queryFn: ({ signal }) => robotApi.list(signal) });
  const list = useList(
    'wechat-accounts',
    async (q, signal) => {
      const all = await kfApi.accounts(signal);
      return { list: all.slice((q.p - 1) * q.ps, q.p * q.ps), total: all.length, page: q.p, size: q.ps };
    },
    {},
  );
  const [corpForm, setCorpForm] = useState<'new' | 'edit' | null>(null);
  const [rename, setRename] = useState<SnsAccountDto | 'new' | null>(null);
  const [assoc, setAssoc] = useState<SnsAccountDto | null>(null);
  const [way, setWay] = useState<{ account: SnsAccountDto; url: string } | null>(null);
  const [scene, setScene] = useState('');
  const [imr, setImr] = useState<string | null>(null);
  const corp = cb.data ?? null;
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['wechat-callback'] });
    void list.refresh();
  };

  const columns: ColumnsType<SnsAccountDto> = [
    { title: t('channel.accountName'), dataIndex: 'name' },
    {
      title: t('channel.openKfid'),
      dataIndex: 'extid',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('channel.skillGroup'),
      dataIndex: 'organname',
      render: (v: string, row) =>
        row.organ ? (
          <Tag color="blue">{v}</Tag>
        ) : (
          <Typography.Text type="secondary">{t('channel.noGroup')}</Typography.Text>
        ),
    },
    {
      title: t('channel.robot'),
      dataIndex: 'robotname',
      render: (v: string) => <RobotCell name={v} />,
    },
    {
      title: t('common.actions'),
      width: 420,
      render: (_: unknown, row) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => setAssoc(row)}
            data-testid={`${id}-assoc-${row.name}`}
          >
            {t('channel.associate')}
          </Button>
          {row.organ && (
            <ConfirmLink
              label={t('channel.unassociate')}
              confirmText={t('channel.unassociate')}
              onConfirm={() => kfApi.unassociate(row.id)}
              onDone={() => void list.refresh()}
              testId={`${id}-unassoc-${row.name}`}
            />
          )}
          <Button
            type="link"
            size="small"
            onClick={() => setImr(row.id)}
            data-testid={`${id}-imr-${row.name}`}
          >
            {t('channel.imr')}
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => setWay({ account: row, url: '' })}
            data-testid={`${id}-way-${row.name}`}
          >
            {t('channel.way')}
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => setRename(row)}
            data-testid={`${id}-rename-${row.name}`}
          >
            {t('common.edit')}
          </Button>
          <DeleteLink
            name={row.name}
            onDelete={() => kfApi.remove(row.id)}
            onDone={() => void list.refresh()}
            testId={`${id}-delete-${row.name}`}
          />
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="wechat-screen">
      <Card
        size="small"
        title={t('channel.corp')}
        extra={
          <Button
            type={corp ? 'default' : 'primary'}
            onClick={() => setCorpForm(corp ? 'edit' : 'new')}
            data-testid={`${id}-corp-edit`}
          >
            {corp ? t('channel.editCorp') : t('channel.saveCorp')}
          </Button>
        }
      >
        <Alert type="info" showIcon message={t('channel.corpHint')} style={{ marginBottom: 12 }} />
        {corp ? (
          <CallbackFields cfg={corp} testId={`${id}-callback`} />
        ) : (
          <Empty description={t('channel.noCorp')} />
        )}
      </Card>
      <Card
        size="small"
        title={t('channel.accounts')}
        extra={
          corp && (
            <Space>
              <Button
                icon={<SyncOutlined />}
                data-testid={`${id}-pull`}
                onClick={async () => {
                  const got = await kfApi.pull(corp.id);
                  notify.success(t('channel.pulled', { n: got.length }));
                  void list.refresh();
                }}
              >
                {t('channel.pull')}
              </Button>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setRename('new')}
                data-testid={`${id}-add`}
              >
                {t('channel.addAccount')}
              </Button>
            </Space>
          )
        }
      >
        <DataTable list={list} rowKey="id" columns={columns} testId={`${id}-table`} />
      </Card>

      <CorpForm
        mode={corpForm}
        corp={corp?.app ?? null}
        onClose={() => setCorpForm(null)}
        onSaved={refresh}
      />

      <FormModal<{ name: string }>
        open={rename !== null}
        title={rename === 'new' ? t('channel.addAccount') : t('channel.renameAccount')}
        testId={`${id}-account-form`}
        initialValues={rename && rename !== 'new' ? { name: rename.name } : {}}
        onCancel={() => setRename(null)}
        onSubmit={async (v) => {
          if (rename === 'new') await kfApi.add(corp!.id, v.name);
          else if (rename) await kfApi.rename(rename.id, v.name);
          setRename(null);
          void list.refresh();
        }}
      >
        <Form.Item name="name" label={t('channel.accountName')} rules={[r.required]}>
          <Input maxLength={16} showCount data-testid={`${id}-account-name`} />
        </Form.Item>
      </FormModal>

      <FormModal<{ organ: string; robotid?: string | null }>
        open={assoc !== null}
        title={t('channel.associate')}
        testId={`${id}-assoc-form`}
        initialValues={{ organ: assoc?.organ ?? undefined, robotid: assoc?.robotid ?? undefined }}
        onCancel={() => setAssoc(null)}
        onSubmit={async (v) => {
          await kfApi.associate(assoc!.id, v.organ, v.robotid);
          setAssoc(null);
          void list.refresh();
        }}
      >
        <Form.Item name="organ" label={t('channel.skillGroup')} rules={[r.required]}>
          <Select
            data-testid={`${id}-assoc-organ`}
            options={(skills.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
        </Form.Item>
        <RobotField robots={robots.data ?? []} testId={`${id}-assoc-robot`} />
      </FormModal>

      <ImrModal owner={imr ? { channel: 'wechat', accountid: imr } : null} onClose={() => setImr(null)} />

      <Modal
        open={way !== null}
        title={t('channel.wayTitle')}
        footer={null}
        onCancel={() => setWay(null)}
        destroyOnHidden
      >
        {way && (
          <Space direction="vertical" style={{ width: '100%' }} data-testid={`${id}-way`}>
            <Typography.Paragraph type="secondary">{t('channel.wayHint')}</Typography.Paragraph>
            <Space.Compact style={{ width: '100%' }}>
              <Input
                value={scene}
                onChange={(e) => setScene(e.target.value)}
                placeholder={t('channel.scene')}
                maxLength={32}
              />
              <Button
                type="primary"
                data-testid={`${id}-way-get`}
                onClick={async () => setWay({ ...way, url: (await kfApi.way(way.account.id, scene)).url })}
              >
                {t('channel.getWay')}
              </Button>
            </Space.Compact>
            {way.url && (
              <Descriptions size="small" column={1}>
                <Descriptions.Item label="URL">
                  <Typography.Text copyable data-testid={`${id}-way-url`}>
                    {way.url}
                  </Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label="QR">
                  <QRCode value={way.url} />
                </Descriptions.Item>
              </Descriptions>
            )}
          </Space>
        )}
      </Modal>
    </Space>
  );
}

function CorpForm(props: {
  mode: 'new' | 'edit' | null;
  corp: ChannelAppDto | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  return (
    <AppForm
      open={props.mode !== null}
      title={props.mode === 'edit' ? t('channel.editCorp') : t('channel.saveCorp')}
      editing={props.mode === 'edit' ? props.corp : null}
      idLabel={t('channel.corpid')}
      testId={`${id}-corp-form`}
      onCancel={props.onClose}
      onSubmit={async (v) => {
        if (props.mode === 'edit' && props.corp) await snsApi.update({ ...v, id: props.corp.id });
        else await snsApi.save({ ...v, channel: 'wechat' });
        props.onClose();
        props.onSaved();
      }}
    />
  );
}
