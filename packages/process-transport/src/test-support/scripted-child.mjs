#!/usr/bin/env node
// A small scripted child for the process transport tests: argv[2] names what it does.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const [mode, argument] = process.argv.slice(2);
const write = (text) => new Promise((resolve) => process.stdout.write(text, resolve));
switch (mode) {
  case 'report':
    await write(`${JSON.stringify({ env: process.env, cwd: process.cwd(), entries: readdirSync('.'), args: process.argv.slice(2), stdin: await readStdin(), policy: readFileSync(process.argv[4].slice('--policy='.length), 'utf8') })}\n`);
    break;
  case 'lines':
    for (let index = 0; index < Number(argument); index += 1) await write(`${'x'.repeat(100)}\n`);
    break;
  case 'long-line':
    await write('y'.repeat(Number(argument)));
    await write('\n');
    break;
  case 'stderr':
    process.stderr.write(`${'e'.repeat(Number(argument))}`);
    await write('{"ok":true}\n');
    break;
  case 'exit':
    process.exitCode = Number(argument);
    break;
  case 'partial':
    await write('{"complete":true}\n{"cut');
    if (argument === 'hang') setInterval(() => {}, 1000);
    break;
  case 'hang': {
    const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await write(`${JSON.stringify({ pid: process.pid, grandchild: grandchild.pid })}\n`);
    setInterval(() => {}, 1000);
    break;
  }
  default:
    process.exitCode = 64;
}

function readStdin() {
  return new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
  });
}
