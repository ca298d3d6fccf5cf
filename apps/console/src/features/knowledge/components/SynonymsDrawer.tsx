import { useState } from 'react';
import { Button, Drawer, Form, Input, List, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { KbSynonymDto } from '@kefu/protocol';
import { kbApi } from '../api';
import { FormModal } from '../../../components/FormModal';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { rules } from '../../../lib/formRules';

/** The synonym list: groups of words the robot treats as one meaning. */
export function SynonymsDrawer(props: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['kbSynonyms'],
    queryFn: ({ signal }) => kbApi.synonyms(signal),
    enabled: props.open,
  });
  const [editing, setEditing] = useState<KbSynonymDto | 'new' | null>(null);
  const current = editing && editing !== 'new' ? editing : null;
  const refresh = () => void qc.invalidateQueries({ queryKey: ['kbSynonyms'] });
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      title={t('kb.synonymsTitle')}
      width={520}
      data-testid="kb-synonyms"
    >
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Typography.Text type="secondary">{t('kb.synonymsHint')}</Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="kb-synonym-new"
        >
          {t('kb.synonymNew')}
        </Button>
      </Space>
      <List
        loading={list.isFetching}
        dataSource={list.data ?? []}
        renderItem={(g) => (
          <List.Item
            actions={[
              <EditLink key="e" onClick={() => setEditing(g)} />,
              <DeleteLink
                key="d"
                name={g.words.join(' ')}
                onDelete={() => kbApi.removeSynonym(g.id)}
                onDone={refresh}
              />,
            ]}
          >
            <Space wrap size={[4, 4]}>
              {g.words.map((w, i) => (
                <Tag key={w} color={i === 0 ? 'blue' : undefined}>
                  {w}
                </Tag>
              ))}
            </Space>
          </List.Item>
        )}
      />
      <FormModal<{ words: string }>
        open={editing !== null}
        title={t('kb.synonyms')}
        testId="kb-synonym-form"
        initialValues={{ words: current?.words.join(' ') ?? '' }}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          if (current) await kbApi.updateSynonym(current.id, v.words);
          else await kbApi.saveSynonym(v.words);
          setEditing(null);
          refresh();
        }}
      >
        <Form.Item name="words" label={t('kb.synonymWords')} rules={[r.required]}>
          <Input data-testid="kb-synonym-words" />
        </Form.Item>
      </FormModal>
    </Drawer>
  );
}
