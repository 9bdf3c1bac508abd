// The page of openav serve: the live picture and sound over a WebSocket, the level meter,
// recordings, photos, devices. Every request carries the token in a cookie set on the first
// visit, so the token is taken out of the address bar.
'use strict';

const $ = (id) => document.getElementById(id);
if (location.search.includes('token=')) history.replaceState(null, '', '/');

// MARK: Requests

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(json?.error?.message ?? `${response.status} ${response.statusText}`);
  return json;
}

function report(error) {
  $('message').textContent = error.message;
}

// A message stays until the next thing the user does.
document.addEventListener('click', (event) => {
  if (event.target instanceof HTMLButtonElement) $('message').textContent = '';
}, true);

// MARK: Live picture, sound and level

let frames = 0;
let newest = null;
let drawing = false;

async function showPicture(buffer) {
  newest = buffer;
  if (drawing) return;
  drawing = true;
  while (newest) {
    const message = newest;
    newest = null;
    try {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(message, 9)], { type: 'image/jpeg' }));
      const canvas = $('picture');
      if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
        canvas.width = bitmap.width;
        canvas.height = bitmap.height;
      }
      canvas.getContext('2d').drawImage(bitmap, 0, 0);
      bitmap.close();
      frames += 1;
      canvas.dataset.frames = String(frames);
    } catch (error) {
      // A picture that does not decode is skipped; the next one replaces it.
    }
  }
  drawing = false;
}

let audio = null;
let playhead = 0;
let samples = 0;

function playSound(buffer) {
  const view = new DataView(buffer);
  const channels = view.getUint8(1);
  const format = view.getUint8(2);
  const rate = view.getUint32(3, true);
  const bytesPerSample = format === 1 ? 4 : 2;
  const count = Math.floor((buffer.byteLength - 7) / (bytesPerSample * channels));
  samples += count;
  $('sound').dataset.samples = String(samples);
  if (!audio || count === 0) return;
  const sound = audio.createBuffer(channels, count, rate);
  for (let channel = 0; channel < channels; channel++) {
    const data = sound.getChannelData(channel);
    for (let i = 0; i < count; i++) {
      const offset = 7 + (i * channels + channel) * bytesPerSample;
      data[i] = format === 1 ? view.getFloat32(offset, true) : view.getInt16(offset, true) / 32768;
    }
  }
  // Play 100 ms behind what arrives; start again from now when more than 300 ms behind.
  const now = audio.currentTime;
  if (playhead < now || playhead > now + 0.3) playhead = now + 0.1;
  const source = audio.createBufferSource();
  source.buffer = sound;
  source.connect(audio.destination);
  source.start(playhead);
  playhead += sound.duration;
}

function showLevel(message) {
  const meter = $('level');
  meter.value = Math.max(-60, message.average);
  meter.dataset.average = String(message.average);
  meter.dataset.peak = String(message.peak);
  $('level-text').textContent = `${message.average.toFixed(0)} dB`;
}

function connect() {
  const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/live`);
  socket.binaryType = 'arraybuffer';
  socket.onopen = () => { $('state').textContent = 'live'; };
  socket.onmessage = (event) => {
    if (typeof event.data === 'string') {
      const message = JSON.parse(event.data);
      if (message.type === 'level') showLevel(message);
    } else if (new DataView(event.data).getUint8(0) === 1) {
      showPicture(event.data);
    } else {
      playSound(event.data);
    }
  };
  socket.onclose = () => {
    $('state').textContent = 'disconnected, trying again…';
    setTimeout(connect, 1000);
  };
}

$('sound').onclick = () => {
  if (audio) {
    audio.close();
    audio = null;
    $('sound').textContent = 'Sound on';
  } else {
    audio = new AudioContext();
    playhead = 0;
    $('sound').textContent = 'Sound off';
  }
};

// MARK: Recording and photos

let recording = null;

async function refreshStatus() {
  try {
    const status = await api('GET', '/api/status');
    const wasRecording = recording;
    recording = status.recording;
    $('record').textContent = recording ? 'Stop' : 'Record';
    $('record').classList.toggle('recording', Boolean(recording));
    $('recording-state').textContent = recording
      ? `recording ${recording}: ${status.recordedSeconds.toFixed(1)} s`
      : (status.lastError ? `the last recording stopped: ${status.lastError}` : '');
    $('recording-state').dataset.seconds = String(status.recordedSeconds);
    if (status.sessionError) {
      $('state').textContent = `stopped: ${status.sessionError}; choose the devices again`;
    } else if ($('state').textContent.startsWith('stopped')) {
      $('state').textContent = 'live';
    }
    if (wasRecording !== recording) refreshRecordings();
  } catch (error) {
    report(error);
  }
}

$('record').onclick = async () => {
  try {
    await api('POST', recording ? '/api/recording/stop' : '/api/recording/start');
  } catch (error) {
    report(error);
  }
  await refreshStatus();
  await refreshRecordings();
};

$('photo').onclick = async () => {
  try {
    await api('POST', '/api/photo');
  } catch (error) {
    report(error);
  }
  await refreshRecordings();
};

function size(bytes) {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e3).toFixed(0)} kB`;
}

async function refreshRecordings() {
  try {
    const list = await api('GET', '/api/recordings');
    const body = $('recordings');
    body.replaceChildren(...list.recordings.map((item) => {
      const row = document.createElement('tr');
      row.dataset.name = item.name;
      const link = document.createElement('a');
      link.href = `/recordings/${encodeURIComponent(item.name)}`;
      link.download = item.name;
      link.textContent = item.name;
      const remove = document.createElement('button');
      remove.textContent = 'Delete';
      remove.disabled = item.recording;
      remove.onclick = async () => {
        try {
          await api('DELETE', `/recordings/${encodeURIComponent(item.name)}`);
        } catch (error) {
          report(error);
        }
        await refreshRecordings();
      };
      const cells = [link, size(item.size), item.recording ? 'recording' : (item.duration == null ? '' : `${item.duration.toFixed(1)} s`), remove];
      row.replaceChildren(...cells.map((content) => {
        const cell = document.createElement('td');
        cell.append(content);
        return cell;
      }));
      return row;
    }));
  } catch (error) {
    report(error);
  }
}

// MARK: Devices

let devices = null;

function option(value, text, selected) {
  const element = document.createElement('option');
  element.value = value;
  element.textContent = text;
  element.selected = selected;
  return element;
}

function showFormats() {
  const camera = devices.cameras.find((device) => device.id === $('camera').value);
  $('format').replaceChildren(...(camera?.formats ?? []).map((format) =>
    option(String(format.index), `${format.width}x${format.height} ${format.codec} up to ${format.maxFrameRate.toFixed(0)} fps`,
      camera.id === devices.camera && format.index === devices.format)));
}

function showDevices(report) {
  devices = report;
  $('camera').replaceChildren(option('', 'none', !report.camera),
    ...report.cameras.map((device) => option(device.id, device.name, device.id === report.camera)));
  $('microphone').replaceChildren(option('', 'none', !report.microphone),
    ...report.microphones.map((device) => option(device.id, device.name, device.id === report.microphone)));
  showFormats();
}

$('camera').onchange = showFormats;

$('apply').onclick = async () => {
  try {
    const camera = $('camera').value || null;
    showDevices(await api('POST', '/api/session', {
      camera,
      format: camera && $('format').value !== '' ? Number($('format').value) : null,
      microphone: $('microphone').value || null,
    }));
  } catch (error) {
    report(error);
  }
};

connect();
api('GET', '/api/devices').then(showDevices, report);
refreshRecordings();
refreshStatus();
setInterval(refreshStatus, 500);
