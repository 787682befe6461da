/**
 * The REST API and its one stage. Methods are added by the area stacks (area-stack.ts); API
 * Gateway's own error answers use the contract's envelope.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Size, Validations } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { addGatewayErrors, gatewayErrors, wafBlocked } from './gateway-responses';
import type { DeployStage, Durability } from './settings';

export interface BrigadeApiProps {
  stage: DeployStage;
  durability: Durability;
  /** The web ACL's rate window (edge.ts): how long a blocked client waits at most (`Retry-After`). */
  wafWindowSeconds: number;
  /** X-Ray tracing of the stage (settings.ts `tracing`). */
  tracing: boolean;
}

/** Every type is binary: a file answer arrives as bytes whatever the client's Accept (docs/infra.md "Binary answers"). */
const BINARY_MEDIA_TYPES = ['*/*'];

/** Answers from this size on are compressed for clients that send `Accept-Encoding: gzip` (or deflate). */
export const COMPRESS_FROM_KIB = 64;

/** One JSON line per request; principalId is the caller's rate subject (`key:<keyId>`, `user:<sub>`). */
const accessLogFormat = apigw.AccessLogFormat.custom(
  JSON.stringify({
    requestId: apigw.AccessLogField.contextRequestId(),
    ip: apigw.AccessLogField.contextIdentitySourceIp(),
    requestTime: apigw.AccessLogField.contextRequestTimeEpoch(),
    httpMethod: apigw.AccessLogField.contextHttpMethod(),
    resourcePath: apigw.AccessLogField.contextResourcePath(),
    status: apigw.AccessLogField.contextStatus(),
    responseLength: apigw.AccessLogField.contextResponseLength(),
    responseLatency: apigw.AccessLogField.contextResponseLatency(),
    integrationLatency: apigw.AccessLogField.contextIntegrationLatency(),
    principalId: apigw.AccessLogField.contextAuthorizerPrincipalId(),
    error: apigw.AccessLogField.contextErrorMessage(),
  }),
);

export class BrigadeApi extends Construct {
  readonly restApi: apigw.RestApi;

  constructor(scope: Construct, id: string, { stage, durability, wafWindowSeconds, tracing }: BrigadeApiProps) {
    super(scope, id);
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: durability.logRetention,
      removalPolicy: durability.removalPolicy,
    });
    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: `brigade-${stage}`,
      description: 'Brigade restaurant operations API',
      endpointTypes: [apigw.EndpointType.REGIONAL],
      // Usage plans identify the caller by the key the authorizer returns, not by X-API-Key:
      // clients send Brigade keys, which API Gateway cannot verify.
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      // File answers (the accounting export, docs/reporting.md#a-file-answer) leave the function
      // base64-encoded; API Gateway sends them as bytes when the request's Accept matches a binary
      // media type, so `*/*` matches every Accept (and none). Text answers (isBase64Encoded false)
      // pass as they are. In return every request body reaches the function base64-encoded, which
      // the chain decodes before parsing (shared/http/chain/jsonBody.ts).
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      // Large answers go out gzipped to clients that accept it: above all the docs page's script
      // (GET /docs/scalar.js, megabytes of text; docs/docs-page.md), and the OpenAPI document.
      minCompressionSize: Size.kibibytes(COMPRESS_FROM_KIB),
      // Stage logging needs the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account).
      cloudWatchRole: true,
      deployOptions: {
        stageName: stage,
        accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
        accessLogFormat,
        tracingEnabled: tracing,
        metricsEnabled: true,
        // Errors only, and never bodies: requests carry guests' personal data.
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
      },
    });
    addGatewayErrors(this.restApi, [...gatewayErrors, wafBlocked(wafWindowSeconds)]);

    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Every handler validates path, query and body against the route table schemas (ajv) and answers 400 VALIDATION_FAILED with field details, which API Gateway request validators cannot produce.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: "API Gateway's account-wide logging role uses AWS's managed policy made for exactly that purpose.",
      },
    );
  }
}
