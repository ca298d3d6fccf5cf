import { useEffect } from 'react';
import { Button, Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TAG_LIMITS, type HistoryDetailDto } from '@kefu/protocol';
import { useSaving } from '../../../lib/saving';
import { notify } from '../../../lib/notify';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { tagsApi } from '../../tags/api';
import { TopicSelect } from '../../tags/components/TopicSelect';
import { historyApi } from '../api';

interface Fields {
  topicid?: string | null;
  tagids: string[];
  memo?: string;
}

/** The record's service summary as the history edits it (POST /api/agentService/update): topic, tags, memo. */
export function SummaryForm({ detail, onSaved }: { detail: HistoryDetailDto; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const { saving, run } = useSaving();
  const tags = useQuery({
    queryKey: ['tags', 'summary'],
    queryFn: ({ signal }) => tagsApi.list('summary', signal),
  });
  const s = detail.service;
  useEffect(() => {
    form.setFieldsValue({
      topicid: detail.summary.topicid ?? undefined,
      tagids: s.tags.map((x) => x.id),
      memo: detail.summary.memo,
    });
  }, [form, detail, s]);
  const save = (v: Fields) =>
    run(async () => {
      try {
        await historyApi.update({
          agentserviceid: s.id,
          topicid: v.topicid ?? '',
          memo: v.memo ?? '',
          tagids: v.tagids ?? [],
        });
      } catch (e) {
        showFieldErrors(form, e);
        throw e;
      }
      notify.success(t('history.saved'));
      onSaved();
    });
  return (
    <Form<Fields>
      form={form}
      layout="vertical"
      size="small"
      onFinish={(v) => void save(v)}
      data-testid="history-summary"
    >
      <Form.Item name="topicid" label={t('history.topic')}>
        <TopicSelect data-testid="history-summary-topic" />
      </Form.Item>
      <Form.Item name="tagids" label={t('history.tags')}>
        <Select
          mode="multiple"
          allowClear
          data-testid="history-summary-tags"
          options={(tags.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
        />
      </Form.Item>
      <Form.Item name="memo" label={t('history.memo')}>
        <Input.TextArea rows={3} maxLength={TAG_LIMITS.memo} data-testid="history-summary-memo" />
      </Form.Item>
      <Button
        type="primary"
        htmlType="submit"
        loading={saving}
        disabled={!detail.writable}
        data-testid="history-summary-save"
      >
        {t('history.saveSummary')}
      </Button>
    </Form>
  );
}
