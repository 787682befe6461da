#!/usr/bin/env bash
# `npm run synth:stages`: both deployable stages synthesized the way `cdk deploy` synthesizes them
# (the CDK CLI, every function bundled, cdk-nag applied by the app: any error or unacknowledged
# finding fails it), into .cdk.out/<stage>, with the time each took (docs/deploy.md "Check offline").
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run gen:operations --silent
for stage in dev prod; do
  args=(-c "stage=$stage")
  # A prod stage must name who gets its alarms (infra/settings.ts); any address will do offline.
  [[ $stage == prod ]] && args+=(-c alarmEmail=oncall@brigade.example)
  rm -rf ".cdk.out/$stage"
  started=$(date +%s)
  if ! npx cdk synth "${args[@]}" --quiet -o ".cdk.out/$stage" > ".cdk.out-$stage.log" 2>&1; then
    grep -v '^\s*$' ".cdk.out-$stage.log" | grep -v 'Bundling asset\|index.mjs\|Done in' | tail -40
    echo "synth $stage: FAILED after $(( $(date +%s) - started )) s (full output: .cdk.out-$stage.log)"
    exit 1
  fi
  functions=$(cat .cdk.out/"$stage"/*.template.json | grep -c '"Type": "AWS::Lambda::Function"' || true)
  echo "synth $stage: ok in $(( $(date +%s) - started )) s, $functions functions bundled (.cdk.out/$stage)"
done
