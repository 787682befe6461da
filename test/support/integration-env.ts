/** Points the data layer of an integration test file at the suite's DynamoDB Local. */
import { inject } from 'vitest';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';

Object.assign(process.env, { STAGE: 'local', TABLE_NAME: 'brigade-test', DYNAMODB_ENDPOINT: inject('dynamoEndpoint') });
resetConfig();
setDb(undefined);
