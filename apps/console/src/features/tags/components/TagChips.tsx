import { Space, Tag } from 'antd';
import type { TagDto } from '@kefu/protocol';

/** Tags as coloured chips (lists, the contact card, the contact drawer). */
export function TagChips({
  tags,
  testId,
}: {
  tags: ReadonlyArray<Pick<TagDto, 'id' | 'name' | 'color'>>;
  testId?: string;
}) {
  if (tags.length === 0) return null;
  return (
    <Space size={[0, 4]} wrap data-testid={testId}>
      {tags.map((t) => (
        <Tag key={t.id} color={t.color} style={{ marginInlineEnd: 4 }}>
          {t.name}
        </Tag>
      ))}
    </Space>
  );
}
