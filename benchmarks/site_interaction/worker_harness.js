// In the worker: when each message came in and each message went out (epoch milliseconds).
() => {
  if (self.bpeBenchLog) return 'already';
  const log = self.bpeBenchLog = [];
  const now = () => performance.timeOrigin + performance.now();
  const post = self.postMessage.bind(self);
  self.postMessage = (message, ...rest) => {
    const event = message.patch && message.patch.events && message.patch.events[0];
    const value = event && event.new;
    log.push([now(), 'out', message.type, event ? `${event.kind} ${event.attr || ''}` : '',
              typeof value === 'string' ? value.length : -1]);
    return post(message, ...rest);
  };
  const handler = self.onmessage;
  self.onmessage = (event) => { log.push([now(), 'in', event.data.type, '', -1]); return handler(event); };
  return 'installed';
}
