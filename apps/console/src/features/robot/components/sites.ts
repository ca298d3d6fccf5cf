import type { RobotDto } from '@kefu/protocol';
import { robotApi } from '../api';

/** Binds the chosen access points to the robot and unbinds the ones it had and lost. */
export async function saveSites(
  robot: Pick<RobotDto, 'id' | 'appids'>,
  chosen: readonly string[],
): Promise<void> {
  const add = chosen.filter((a) => !robot.appids.includes(a));
  const drop = robot.appids.filter((a) => !chosen.includes(a));
  for (const appid of add) await robotApi.bind(appid, robot.id);
  for (const appid of drop) await robotApi.bind(appid, null);
}
