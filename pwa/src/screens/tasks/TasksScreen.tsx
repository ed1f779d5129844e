// Being built this session (issue 13): the owner replaces this file.
export function TasksScreen() {
  return null;
}
