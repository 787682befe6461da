/**
 * The documents of the AWS-managed policies a role of the template attaches (CDK's own provider
 * functions use them). AWS owns these; they are copied here as AWS publishes them, so that the
 * simulator sees what IAM would. Source: the AWS Managed Policy Reference Guide
 * (https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSLambdaBasicExecutionRole.html),
 * version 1. A role that attaches a policy missing here fails test/infra/iam.ts loudly.
 */
import type { Policy } from './iam';

export const awsManagedPolicies: Record<string, Policy> = {
  'service-role/AWSLambdaBasicExecutionRole': {
    name: 'AWSLambdaBasicExecutionRole',
    document: {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: '*',
        },
      ],
    },
  },
};
