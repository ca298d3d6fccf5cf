import { TreeSelect, type TreeSelectProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { topicsApi } from '../api';
import { treeData } from '../../../lib/tree';

/** A service topic picked from the topic tree (GET /api/sessionType), for a Form.Item. */
export function TopicSelect(props: Omit<TreeSelectProps, 'treeData'>) {
  const topics = useQuery({ queryKey: ['topics'], queryFn: ({ signal }) => topicsApi.list(signal) });
  return <TreeSelect allowClear treeDefaultExpandAll {...props} treeData={treeData(topics.data ?? [])} />;
}
