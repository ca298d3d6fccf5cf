import { AppChannelScreen } from '../components/AppChannelScreen';

/** /setup/weapp (A09_A01_A03): mini-programs. */
export default function WeappScreen() {
  return <AppChannelScreen channel="weapp" />;
}
