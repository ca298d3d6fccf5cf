import { useMemo, useState } from 'react';
import { Alert, Card, DatePicker, Empty, Form, Segmented, Select, Space, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import {
  ANALYSIS_CALLS,
  CHANNELS,
  FIGURE_FORMAT,
  type AnalysisCall,
  type AnalysisFilter,
  type AnalysisQuery,
} from '@kefu/protocol';
import { analysisApi } from '../../features/analysis/api';
import { ExportButton } from '../ExportButton';
import { FilterBar } from '../FilterBar';
import { ShareChart, TrendChart } from './AnalysisChart';
import { AnalysisTable } from './AnalysisTable';
import { SummaryCards } from './SummaryCards';
import { PRESETS, presetRange, todayIn, type Preset } from './dates';
import { bucketLabel, formatDuration, rowLabel } from './format';

type Filters = Pick<AnalysisQuery, AnalysisFilter>;

/**
 * The one recipe of the /dataAnalysis screens: date presets (today, yesterday, 7 / 30 days, this month) or a
 * custom range compared with the previous period, the call's filters, its dimensions, the trend chart (and
 * a share chart for categorical dimensions), the summary cards, the table with its total, and the .xlsx
 * export. A screen names only its call: `<AnalysisScreen call="browserData" share />`.
 */
export function AnalysisScreen(props: {
  call: AnalysisCall;
  /** More calls shown by the same screen, as further dimensions (the work log's per-day list). */
  more?: AnalysisCall[];
  share?: boolean;
  notice?: string;
}) {
  const views = [props.call, ...(props.more ?? [])].flatMap((c) =>
    ANALYSIS_CALLS[c].dims.map((d) => ({ call: c, dim: d })),
  );
  const { t } = useTranslation();
  const [form] = Form.useForm<Filters>();
  const [preset, setPreset] = useState<Preset>('last7');
  const [custom, setCustom] = useState<[string, string] | null>(null);
  const [view, setView] = useState(views[0]!);
  const { call, dim } = view;
  const def = ANALYSIS_CALLS[call];
  const [filters, setFilters] = useState<Filters>({});
  const options = useQuery({
    queryKey: ['analysisOptions', props.call],
    queryFn: ({ signal }) => analysisApi.options(props.call, signal),
    staleTime: 60_000,
  });
  const today = todayIn(options.data?.timezone ?? 'Asia/Shanghai');
  const [begin, end] =
    preset === 'custom' && custom ? custom : presetRange(preset === 'custom' ? 'last7' : preset, today);
  const query: AnalysisQuery = { begin, end, dim, compare: true, ...filters };
  const res = useQuery({
    queryKey: ['analysis', call, query],
    queryFn: ({ signal }) => analysisApi.get(call, query, signal),
    enabled: options.isSuccess,
    placeholderData: keepPreviousData,
  });
  const result = res.data;
  const axis = call === 'visitor' ? (dim === 'weekday' ? 'weekday' : 'hour') : 'day';
  const msChart = def.chart.every((f) => FIGURE_FORMAT[f] === 'ms');
  const empty = !!result && result.rows.length === 0;

  const share = useMemo(() => {
    if (!props.share || !result?.rows.length) return [];
    const fig = result.figures[0]!;
    const rows = [...result.rows].sort((a, b) => Number(b.figures[fig] ?? 0) - Number(a.figures[fig] ?? 0));
    const top = rows
      .slice(0, 8)
      .map((r) => ({ name: rowLabel(t, result.dim, r.key, r.name), value: Number(r.figures[fig] ?? 0) }));
    const rest = rows.slice(8).reduce((n, r) => n + Number(r.figures[fig] ?? 0), 0);
    return rest ? [...top, { name: t('analysis.other'), value: rest }] : top;
  }, [props.share, result, t]);

  const select = (f: AnalysisFilter) => {
    const o = options.data;
    const choices =
      f === 'organ'
        ? (o?.organs ?? []).map((x) => ({ value: x.id, label: x.name }))
        : f === 'agentno'
          ? (o?.agents ?? []).map((x) => ({ value: x.id, label: x.name }))
          : f === 'appid'
            ? (o?.appids ?? []).map((x) => ({ value: x.id, label: x.name }))
            : CHANNELS.map((c) => ({ value: c, label: t(`channel.name.${c}`) }));
    return (
      <Form.Item key={f} name={f} label={t(`analysis.filter.${f}`)}>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          options={choices}
          style={{ width: 160 }}
          data-testid={`analysis-filter-${f}`}
        />
      </Form.Item>
    );
  };

  const exportButton = (
    <ExportButton testId="analysis-export" disabled={!result} start={() => analysisApi.export(call, query)} />
  );

  return (
    <Card size="small" data-testid="analysis-screen">
      {props.notice && <Alert type="info" showIcon message={props.notice} style={{ marginBottom: 12 }} />}
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented<Preset>
          value={preset}
          onChange={(v) => {
            setPreset(v);
            if (v !== 'custom') setCustom(null);
          }}
          options={[
            ...PRESETS.map((p) => ({
              value: p,
              label: <span data-testid={`analysis-preset-${p}`}>{t(`analysis.preset.${p}`)}</span>,
            })),
          ]}
        />
        <DatePicker.RangePicker
          data-testid="analysis-range"
          allowClear={false}
          value={[dayjs(begin), dayjs(end)]}
          onChange={(v) => {
            if (!v?.[0] || !v[1]) return;
            setCustom([v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')]);
            setPreset('custom');
          }}
        />
        {result?.previousBegin && (
          <Typography.Text type="secondary" data-testid="analysis-previous-range">
            {t('analysis.compare')}: {result.previousBegin} ~ {result.previousEnd}
          </Typography.Text>
        )}
        {def.filters.length === 0 && exportButton}
      </Space>
      {def.filters.length > 0 && (
        <FilterBar<Filters>
          form={form}
          testId="analysis-filters"
          onSearch={(v) => setFilters(clean(v))}
          extra={exportButton}
        >
          {def.filters.map(select)}
        </FilterBar>
      )}
      {result && <SummaryCards result={result} />}
      {views.length > 1 && (
        <Segmented
          style={{ marginBottom: 12 }}
          value={dim}
          onChange={(v) => setView(views.find((x) => x.dim === v) ?? views[0]!)}
          options={views.map((x) => ({
            value: x.dim,
            label: <span data-testid={`analysis-dim-${x.dim}`}>{t(`analysis.dim.${x.dim}`)}</span>,
          }))}
        />
      )}
      {empty ? (
        <Empty description={t('analysis.empty')} style={{ margin: '24px 0' }} data-testid="analysis-empty" />
      ) : (
        result && (
          <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', marginBottom: 12 }}>
            <div style={{ flex: '2 1 480px', minWidth: 0 }}>
              <TrendChart
                testId="analysis-chart"
                kind={axis === 'day' ? 'line' : 'bar'}
                labels={result.buckets.map((b) => bucketLabel(t, axis, b))}
                series={Object.entries(result.series).map(([fig, values]) => ({
                  name: t(`analysis.fig.${fig}`),
                  values,
                }))}
                format={msChart ? formatDuration : undefined}
              />
            </div>
            {share.length > 0 && (
              <div style={{ flex: '1 1 320px', minWidth: 0 }}>
                <ShareChart testId="analysis-share" data={share} />
              </div>
            )}
          </div>
        )
      )}
      {result && (
        <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8, fontSize: 12 }}>
          {t('analysis.timezone', { tz: result.timezone })}
        </Typography.Text>
      )}
      <AnalysisTable result={result} loading={res.isFetching} />
    </Card>
  );
}

/** Cleared selects come back as undefined or null: left out of the query. */
const clean = (v: Filters): Filters => {
  const out: Filters = {};
  if (v.organ) out.organ = v.organ;
  if (v.agentno) out.agentno = v.agentno;
  if (v.channel) out.channel = v.channel;
  if (v.appid) out.appid = v.appid;
  return out;
};
