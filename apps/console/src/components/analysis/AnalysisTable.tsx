import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT, PAGE_SIZES, type AnalysisResultDto, type AnalysisRowDto } from '@kefu/protocol';
import { formatFigure, rowLabel } from './format';
import { FigureTitle } from './FigureTitle';

/** The rows of the analysis under its charts, with the total (the screen's summary) as the last line. */
export function AnalysisTable({
  result,
  loading,
}: {
  result: AnalysisResultDto | undefined;
  loading: boolean;
}) {
  const { t } = useTranslation();
  const dim = result?.dim ?? '';
  const columns: ColumnsType<AnalysisRowDto> = [
    {
      title: t(`analysis.dim.${dim}`),
      dataIndex: 'key',
      fixed: 'left',
      render: (_: string, r) => rowLabel(t, dim, r.key, r.name),
    },
    ...(dim === 'agentday'
      ? [
          {
            title: t('analysis.dim.day'),
            key: 'date',
            render: (_: unknown, r: AnalysisRowDto) => r.key.slice(0, 10),
          },
        ]
      : []),
    ...(result?.figures ?? []).map((fig) => ({
      title: <FigureTitle fig={fig} />,
      key: fig,
      align: 'right' as const,
      sorter: (a: AnalysisRowDto, b: AnalysisRowDto) =>
        Number(a.figures[fig] ?? -1) - Number(b.figures[fig] ?? -1),
      render: (_: unknown, r: AnalysisRowDto) => formatFigure(fig, r.figures[fig]),
    })),
  ];
  return (
    <Table<AnalysisRowDto>
      data-testid="analysis-table"
      rowKey="key"
      size="middle"
      loading={loading}
      scroll={{ x: 'max-content' }}
      columns={columns}
      dataSource={result?.rows ?? []}
      locale={{ emptyText: t('analysis.empty') }}
      pagination={{
        defaultPageSize: PAGE_SIZE_DEFAULT,
        pageSizeOptions: PAGE_SIZES.map(String),
        showSizeChanger: true,
        showTotal: (n) => t('common.total', { total: n }),
      }}
      summary={() =>
        result && result.rows.length > 0 ? (
          <Table.Summary fixed="bottom">
            <Table.Summary.Row data-testid="analysis-total">
              <Table.Summary.Cell index={0}>
                <b>{t('analysis.total')}</b>
              </Table.Summary.Cell>
              {dim === 'agentday' && <Table.Summary.Cell index={1} />}
              {result.figures.map((fig, i) => (
                <Table.Summary.Cell key={fig} index={i + (dim === 'agentday' ? 2 : 1)} align="right">
                  <b>{formatFigure(fig, result.total[fig])}</b>
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null
      }
    />
  );
}
