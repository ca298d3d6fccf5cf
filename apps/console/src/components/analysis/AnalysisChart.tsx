import ReactEChartsCore from 'echarts-for-react/esm/core';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// Only what the analysis screens draw: this module (and ECharts with it) loads with those routes alone.
echarts.use([
  LineChart,
  BarChart,
  PieChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  CanvasRenderer,
]);

export interface SeriesSpec {
  name: string;
  values: number[];
}

/** Lines over days, or bars over hours / weekdays: one series per figure. */
export function TrendChart(props: {
  kind: 'line' | 'bar';
  labels: string[];
  series: SeriesSpec[];
  format?: (v: number) => string;
  testId?: string;
}) {
  const option = {
    animation: false,
    tooltip: {
      trigger: 'axis',
      ...(props.format ? { valueFormatter: (v: unknown) => props.format!(Number(v)) } : {}),
    },
    legend: { top: 0 },
    grid: { left: 56, right: 24, top: 36, bottom: 28 },
    xAxis: { type: 'category', data: props.labels, boundaryGap: props.kind === 'bar' },
    // An explicit undefined would replace ECharts' default label settings: only set what is there.
    yAxis: {
      type: 'value',
      minInterval: 1,
      ...(props.format ? { axisLabel: { formatter: (v: number) => props.format!(v) } } : {}),
    },
    series: props.series.map((s) => ({
      name: s.name,
      type: props.kind,
      data: s.values,
      smooth: props.kind === 'line',
      showSymbol: props.labels.length <= 31,
    })),
  };
  return (
    <div data-testid={props.testId}>
      <ReactEChartsCore echarts={echarts} option={option} notMerge style={{ height: 300 }} />
    </div>
  );
}

/** The share of each row in one figure (top rows; the rest as one slice). */
export function ShareChart(props: { data: Array<{ name: string; value: number }>; testId?: string }) {
  const option = {
    animation: false,
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    series: [
      {
        type: 'pie',
        radius: ['35%', '65%'],
        data: props.data,
        label: { formatter: '{b} {d}%' },
      },
    ],
  };
  return (
    <div data-testid={props.testId}>
      <ReactEChartsCore echarts={echarts} option={option} notMerge style={{ height: 300 }} />
    </div>
  );
}
