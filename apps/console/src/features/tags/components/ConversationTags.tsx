import { Empty, Space, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { tagsApi } from '../api';

/** The conversation tags as toggles: a click puts the tag on the conversation or takes it off. */
export function ConversationTags(props: {
  agentserviceid: string;
  tagIds: readonly string[];
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const tags = useQuery({
    queryKey: ['tags', 'summary'],
    queryFn: ({ signal }) => tagsApi.list('summary', signal),
  });
  const list = tags.data ?? [];
  if (tags.isSuccess && list.length === 0)
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('record.noTags')} style={{ margin: 0 }} />
    );
  const toggle = async (tagid: string, checked: boolean) => {
    try {
      await tagsApi.relate(props.agentserviceid, tagid, checked);
    } finally {
      props.onChanged();
    }
  };
  return (
    <Space size={[4, 6]} wrap data-testid="record-tags">
      {list.map((x) => {
        const on = props.tagIds.includes(x.id);
        return (
          <Tag.CheckableTag
            key={x.id}
            checked={on}
            onChange={(v) => void toggle(x.id, v)}
            data-testid={`record-tag-${x.name}`}
            data-checked={on ? 'true' : 'false'}
            style={on ? { background: x.color } : { border: `1px solid ${x.color}`, color: x.color }}
          >
            {x.name}
          </Tag.CheckableTag>
        );
      })}
    </Space>
  );
}
