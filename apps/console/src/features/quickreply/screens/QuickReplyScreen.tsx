import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  Modal,
  Row,
  Segmented,
  Space,
  Table,
  Tree,
  TreeSelect,
  Typography,
  theme,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  LIMITS,
  QUICK_CONTENT_MAX,
  QUICK_TITLE_MAX,
  type QuickReplyDto,
  type QuickScope,
  type QuickTypeDto,
} from '@kefu/protocol';
import { quickReplyApi, typeTree } from '../api';
import { moveId } from '../../access/api';
import { useConfirmAction } from '../../../lib/confirm';
import { DeleteLink, EditLink, MoveButtons } from '../../../components/RowActions';
import { notify } from '../../../lib/notify';
import { rules } from '../../../lib/formRules';
import { showFieldErrors } from '../../access/components/fieldErrors';

interface TypeDraft {
  item: QuickTypeDto | null;
}
interface ReplyDraft {
  item: QuickReplyDto | null;
}

/** /setup/quickreply (A09_A03_A09): the category tree and the replies, public or the agent's own. */
export default function QuickReplyScreen() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const r = rules(i18n.language);
  const confirm = useConfirmAction();
  const { token } = theme.useToken();
  const [scope, setScope] = useState<QuickScope>('pub');
  const [cate, setCate] = useState('');
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [typeDraft, setTypeDraft] = useState<TypeDraft | null>(null);
  const [replyDraft, setReplyDraft] = useState<ReplyDraft | null>(null);
  const [typeForm] = Form.useForm<{ name: string; parentid?: string }>();
  const [replyForm] = Form.useForm<{ title: string; content: string; cate?: string }>();

  const typesKey = ['quicktype', scope];
  const repliesKey = ['quickreply', scope, cate, q];
  const types = useQuery({ queryKey: typesKey, queryFn: ({ signal }) => quickReplyApi.types(scope, signal) });
  const replies = useQuery({
    queryKey: repliesKey,
    queryFn: ({ signal }) =>
      quickReplyApi.replies({ type: scope, cate: cate || undefined, q: q || undefined }, signal),
  });
  const typeList = types.data ?? [];
  const items = replies.data ?? [];
  const tree = useMemo(() => typeTree(typeList), [typeList]);
  const names = useMemo(() => new Map(typeList.map((x) => [x.id, x.name])), [typeList]);
  const current = typeList.find((x) => x.id === cate) ?? null;

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['quicktype'] });
    void qc.invalidateQueries({ queryKey: ['quickreply'] });
    void qc.invalidateQueries({ queryKey: ['dialogue', 'quickreply'] });
  };
  useEffect(() => {
    setCate('');
    setSelected([]);
  }, [scope]);
  useEffect(() => {
    if (typeDraft)
      typeForm.setFieldsValue({
        name: typeDraft.item?.name ?? '',
        parentid: (typeDraft.item ? typeDraft.item.parentid : cate) || undefined,
      });
  }, [typeDraft, typeForm, cate]);
  useEffect(() => {
    if (replyDraft)
      replyForm.setFieldsValue({
        title: replyDraft.item?.title ?? '',
        content: replyDraft.item?.content ?? '',
        cate: (replyDraft.item ? replyDraft.item.cate : cate) || undefined,
      });
  }, [replyDraft, replyForm, cate]);

  const submitType = async (v: { name: string; parentid?: string }) => {
    try {
      if (typeDraft?.item)
        await quickReplyApi.updateType({
          id: typeDraft.item.id,
          name: v.name.trim(),
          parentid: v.parentid ?? '',
        });
      else await quickReplyApi.saveType({ name: v.name.trim(), parentid: v.parentid ?? '', type: scope });
      setTypeDraft(null);
      notify.success(t('common.done'));
      refresh();
    } catch (e) {
      showFieldErrors(typeForm, e);
    }
  };
  const submitReply = async (v: { title: string; content: string; cate?: string }) => {
    try {
      const body = { title: v.title.trim(), content: v.content.trim(), cate: v.cate ?? '' };
      if (replyDraft?.item) await quickReplyApi.update({ id: replyDraft.item.id, ...body });
      else await quickReplyApi.save({ ...body, type: scope });
      setReplyDraft(null);
      notify.success(t('common.done'));
      refresh();
    } catch (e) {
      showFieldErrors(replyForm, e);
    }
  };
  const move = async (i: number, d: -1 | 1) => {
    const ids = moveId(
      items.map((x) => x.id),
      i,
      d,
    );
    await quickReplyApi.rank(ids);
    refresh();
  };

  const columns: ColumnsType<QuickReplyDto> = [
    {
      title: t('qr.title'),
      dataIndex: 'title',
      width: 180,
      render: (v: string) => <span data-testid={`qr-row-${v}`}>{v}</span>,
    },
    {
      title: t('qr.content'),
      dataIndex: 'content',
      render: (v: string) => (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: v }} style={{ marginBottom: 0 }}>
          {v}
        </Typography.Paragraph>
      ),
    },
    {
      title: t('qr.cate'),
      dataIndex: 'cate',
      width: 120,
      render: (v: string | null) => (v ? (names.get(v) ?? '') : t('qr.uncategorised')),
    },
    {
      title: t('common.actions'),
      key: 'a',
      width: 200,
      render: (_, x, i) => (
        <Space size={0}>
          <MoveButtons
            index={i}
            count={items.length}
            onMove={move}
            upLabel={t('qr.up')}
            downLabel={t('qr.down')}
          />
          <EditLink onClick={() => setReplyDraft({ item: x })} />
          <DeleteLink
            name={x.title}
            testId={`qr-delete-${x.title}`}
            onDelete={() => quickReplyApi.remove(x.id)}
            onDone={refresh}
          />
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="quickreply-screen">
      <Segmented<QuickScope>
        value={scope}
        onChange={setScope}
        options={[
          { value: 'pub', label: t('qr.scope.pub') },
          { value: 'pri', label: t('qr.scope.pri') },
        ]}
        data-testid="qr-scope"
      />
      <Row gutter={16}>
        <Col xs={24} lg={7} xl={6}>
          <Card
            title={t('qr.types')}
            size="small"
            data-testid="qr-types"
            extra={
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<PlusOutlined />}
                  aria-label={t('qr.newType')}
                  title={t('qr.newType')}
                  data-testid="qr-type-create"
                  onClick={() => setTypeDraft({ item: null })}
                />
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  disabled={!current}
                  aria-label={t('qr.editType')}
                  title={t('qr.editType')}
                  onClick={() => current && setTypeDraft({ item: current })}
                />
                <Button
                  type="link"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  disabled={!current}
                  aria-label={t('common.delete')}
                  title={t('common.delete')}
                  data-testid="qr-type-delete"
                  onClick={() =>
                    current &&
                    confirm(
                      t('qr.deleteTypeConfirm', { name: current.name }),
                      () => quickReplyApi.removeType(current.id),
                      () => {
                        setCate('');
                        refresh();
                      },
                    )
                  }
                />
              </Space>
            }
          >
            <div
              role="button"
              tabIndex={0}
              data-testid="qr-type-all"
              onClick={() => setCate('')}
              onKeyDown={(e) => e.key === 'Enter' && setCate('')}
              style={{
                padding: '2px 8px',
                marginBottom: 4,
                borderRadius: token.borderRadiusSM,
                cursor: 'pointer',
                background: cate === '' ? token.controlItemBgActive : undefined,
              }}
            >
              {t('qr.allTypes')}
            </div>
            {tree.length ? (
              <Tree
                blockNode
                defaultExpandAll
                key={typeList.map((x) => x.id).join()}
                treeData={tree}
                selectedKeys={cate ? [cate] : []}
                onSelect={(keys) => setCate(String(keys[0] ?? ''))}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('qr.typeEmpty')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={17} xl={18}>
          <Card
            title={current ? `${t('qr.list')} · ${current.name}` : t('qr.list')}
            size="small"
            data-testid="qr-replies"
            extra={
              <Space>
                <Input.Search
                  allowClear
                  size="small"
                  placeholder={t('qr.search')}
                  maxLength={LIMITS.name}
                  onSearch={(v) => setQ(v.trim())}
                  style={{ width: 220 }}
                  data-testid="qr-search"
                />
                <Button
                  size="small"
                  danger
                  disabled={selected.length === 0}
                  onClick={() =>
                    confirm(
                      t('qr.batchDeleteConfirm', { n: selected.length }),
                      () => quickReplyApi.removeMany(selected),
                      () => {
                        setSelected([]);
                        refresh();
                      },
                    )
                  }
                >
                  {t('qr.batchDelete')}
                </Button>
                <Button
                  type="primary"
                  size="small"
                  icon={<PlusOutlined />}
                  data-testid="qr-create"
                  onClick={() => setReplyDraft({ item: null })}
                >
                  {t('qr.new')}
                </Button>
              </Space>
            }
          >
            <Table<QuickReplyDto>
              rowKey="id"
              size="small"
              columns={columns}
              dataSource={items}
              loading={replies.isFetching}
              pagination={false}
              rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
              locale={{
                emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('qr.empty')} />,
              }}
            />
          </Card>
        </Col>
      </Row>

      <Modal
        open={!!typeDraft}
        title={t(typeDraft?.item ? 'qr.editType' : 'qr.newType')}
        onCancel={() => setTypeDraft(null)}
        onOk={() => typeForm.submit()}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': 'qr-type-submit' }}
        forceRender
      >
        <Form form={typeForm} layout="vertical" onFinish={(v) => void submitType(v)}>
          <Form.Item name="name" label={t('qr.typeName')} rules={[r.required]}>
            <Input data-testid="qr-type-name" maxLength={LIMITS.name} />
          </Form.Item>
          <Form.Item name="parentid" label={t('qr.parent')}>
            <TreeSelect
              allowClear
              treeDefaultExpandAll
              placeholder={t('qr.parentNone')}
              treeData={typeTree(typeList, typeDraft?.item?.id)}
            />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={!!replyDraft}
        title={t(replyDraft?.item ? 'qr.edit' : 'qr.new')}
        onCancel={() => setReplyDraft(null)}
        onOk={() => replyForm.submit()}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': 'qr-submit' }}
        forceRender
      >
        <Form form={replyForm} layout="vertical" onFinish={(v) => void submitReply(v)}>
          <Form.Item name="cate" label={t('qr.cate')}>
            <TreeSelect allowClear treeDefaultExpandAll placeholder={t('qr.uncategorised')} treeData={tree} />
          </Form.Item>
          <Form.Item name="title" label={t('qr.title')} rules={[r.required]}>
            <Input data-testid="qr-title" maxLength={QUICK_TITLE_MAX} />
          </Form.Item>
          <Form.Item name="content" label={t('qr.content')} rules={[r.required]}>
            <Input.TextArea data-testid="qr-content" rows={5} maxLength={QUICK_CONTENT_MAX} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
