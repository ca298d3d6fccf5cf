import { useState } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CHANNELS, END_BY, userDisplayName } from '@kefu/protocol';
import { datePresets, shortcutRange, type Range } from '../../../lib/dates';
import { treeData } from '../../../lib/tree';
import { get } from '../../../lib/api';
import { tagsApi } from '../../tags/api';
import { TopicSelect } from '../../tags/components/TopicSelect';
import { accessApi } from '../../access/api';
import type { HistoryFilter } from '../api';

export interface FilterFields {
  range?: Range | null;
  keyword?: string;
  visitor?: string;
  agentno?: string;
  organ?: string;
  channel?: string;
  appid?: string;
  tagid?: string;
  topicid?: string;
  satislevel?: number;
  endby?: string;
  waitMin?: number | null;
  waitMax?: number | null;
  serveMin?: number | null;
  serveMax?: number | null;
  leavemsg?: boolean;
  ai?: boolean;
}

/** The last 30 days: a date range keeps a keyword search on recent messages (docs/api.md "History"). */
export const initialFields = (): FilterFields => ({ range: shortcutRange('lastMonth') });

const num = (v: number | null | undefined) => (v === null || v === undefined ? undefined : v);
const text = (v: string | undefined) => v?.trim() || undefined;

export const toFilter = (v: FilterFields): HistoryFilter => ({
  begin: v.range?.[0]?.valueOf(),
  end: v.range?.[1]?.valueOf(),
  keyword: text(v.keyword),
  visitor: text(v.visitor),
  agentno: v.agentno,
  organ: v.organ,
  channel: v.channel,
  appid: v.appid,
  tagid: v.tagid,
  topicid: v.topicid,
  satislevel: v.satislevel,
  endby: v.endby,
  waitMin: num(v.waitMin),
  waitMax: num(v.waitMax),
  serveMin: num(v.serveMin),
  serveMax: num(v.serveMax),
  leavemsg: v.leavemsg,
  ai: v.ai,
});

const useOptions = () => {
  const agents = useQuery({
    queryKey: ['common', 'users'],
    queryFn: ({ signal }) =>
      get<Array<{ id: string; username: string; uname: string }>>('/common/userList', undefined, signal),
  });
  const organs = useQuery({
    queryKey: ['common', 'skills'],
    queryFn: ({ signal }) =>
      get<Array<{ id: string; name: string; parentid: string | null }>>(
        '/common/skillList',
        undefined,
        signal,
      ),
  });
  const tags = useQuery({
    queryKey: ['tags', 'summary'],
    queryFn: ({ signal }) => tagsApi.list('summary', signal),
  });
  // Only setup holders may list websites; others filter without it.
  const sites = useQuery({
    queryKey: ['access', 'list'],
    queryFn: ({ signal }) => accessApi.list(signal),
    retry: false,
  });
  return { agents, organs, tags, sites };
};

/** The history filter's fields (inside FilterBar); the less used ones behind "more filters". */
export function HistoryFilterItems() {
  const { t } = useTranslation();
  const [more, setMore] = useState(false);
  const o = useOptions();
  const yesNo = [
    { value: true, label: t('history.yes') },
    { value: false, label: t('history.no') },
  ];
  const w = { width: 160 };
  const range = (name: 'wait' | 'serve') => (
    <Form.Item label={t(`history.${name}`)}>
      <Space.Compact>
        <Form.Item name={`${name}Min`} noStyle>
          <InputNumber
            min={0}
            max={2_592_000}
            precision={0}
            placeholder={t('history.min')}
            style={{ width: 90 }}
          />
        </Form.Item>
        <Form.Item name={`${name}Max`} noStyle>
          <InputNumber
            min={0}
            max={2_592_000}
            precision={0}
            placeholder={t('history.max')}
            style={{ width: 90 }}
          />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
  return (
    <>
      <Form.Item name="range" label={t('history.range')}>
        <DatePicker.RangePicker showTime presets={datePresets(t)} data-testid="history-range" />
      </Form.Item>
      <Form.Item name="keyword" label={t('history.keyword')}>
        <Input
          allowClear
          placeholder={t('history.keywordHint')}
          maxLength={100}
          style={{ width: 200 }}
          data-testid="history-keyword"
        />
      </Form.Item>
      <Form.Item name="visitor" label={t('history.visitor')}>
        <Input
          allowClear
          placeholder={t('history.visitorHint')}
          maxLength={64}
          style={w}
          data-testid="history-visitor"
        />
      </Form.Item>
      <Form.Item name="agentno" label={t('history.agent')}>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          style={w}
          options={(o.agents.data ?? []).map((a) => ({ value: a.id, label: userDisplayName(a) }))}
        />
      </Form.Item>
      <Form.Item name="tagid" label={t('history.tag')}>
        <Select
          allowClear
          style={w}
          data-testid="history-tag"
          options={(o.tags.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
        />
      </Form.Item>
      <Form.Item name="satislevel" label={t('history.satislevel')}>
        <Select
          allowClear
          style={w}
          options={[1, 2, 3, 4, 5, 0].map((n) => ({ value: n, label: t(`history.satis.${n}`) }))}
        />
      </Form.Item>
      {more && (
        <>
          <Form.Item name="organ" label={t('history.organ')}>
            <TreeSelect allowClear treeDefaultExpandAll style={w} treeData={treeData(o.organs.data ?? [])} />
          </Form.Item>
          <Form.Item name="channel" label={t('history.channel')}>
            <Select
              allowClear
              style={w}
              options={CHANNELS.map((c) => ({ value: c, label: t(`channel.name.${c}`) }))}
            />
          </Form.Item>
          <Form.Item name="appid" label={t('history.appid')}>
            <Select
              allowClear
              style={w}
              options={(o.sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            />
          </Form.Item>
          <Form.Item name="topicid" label={t('history.topic')}>
            <TopicSelect style={w} />
          </Form.Item>
          <Form.Item name="endby" label={t('history.endby')}>
            <Select
              allowClear
              style={w}
              options={END_BY.map((e) => ({ value: e, label: t(`history.endby.${e}`) }))}
            />
          </Form.Item>
          {range('wait')}
          {range('serve')}
          <Form.Item name="leavemsg" label={t('history.leavemsg')}>
            <Select allowClear style={{ width: 100 }} options={yesNo} />
          </Form.Item>
          <Form.Item name="ai" label={t('history.ai')}>
            <Select allowClear style={{ width: 100 }} options={yesNo} />
          </Form.Item>
        </>
      )}
      <Form.Item>
        <Button type="link" onClick={() => setMore((m) => !m)} data-testid="history-more">
          {t(more ? 'history.less' : 'history.more')}
        </Button>
      </Form.Item>
    </>
  );
}
