"""The seed app's Amazon Transcribe workflow, unchanged but for the endpoint, against a running flightvoice server.

usage: boto3_workflow.py ENDPOINT CLIP EXPECTED_FLIGHT [SECOND_ENDPOINT]
(AWS_SHARED_CREDENTIALS_FILE must point at the server's file.) With SECOND_ENDPOINT (two servers on one fleet
database, as behind a load balancer) the media is uploaded through the first and everything else goes through the
second. Prints one line per step and exits non-zero on the first failure.
"""
import json
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

endpoint, clip, expected = sys.argv[1], sys.argv[2], sys.argv[3]
second = sys.argv[4] if len(sys.argv) > 4 else endpoint
session = boto3.session.Session(region_name="us-east-1")
uploader = session.client("s3", endpoint_url=endpoint, config=Config(s3={"addressing_style": "path"}))
s3 = session.client("s3", endpoint_url=second, config=Config(s3={"addressing_style": "path"}))
transcribe = session.client("transcribe", endpoint_url=second)

uploader.create_bucket(Bucket="calls")
with open(clip, "rb") as media:
    uploader.put_object(Bucket="calls", Key="incoming/query 1.wav", Body=media.read())
listed = s3.list_objects_v2(Bucket="calls", Prefix="incoming/")
assert [entry["Key"] for entry in listed["Contents"]] == ["incoming/query 1.wav"], listed
print("uploaded", listed["KeyCount"])

transcribe.start_transcription_job(
    TranscriptionJobName="boto-job-1", LanguageCode="en-US", MediaFormat="wav",
    Media={"MediaFileUri": "s3://calls/incoming/query 1.wav"},
    OutputBucketName="calls", OutputKey="results/boto-job-1.json")
try:
    transcribe.start_transcription_job(TranscriptionJobName="boto-job-1", LanguageCode="en-US",
                                       Media={"MediaFileUri": "s3://calls/incoming/query 1.wav"})
    sys.exit("a duplicate job name was accepted")
except transcribe.exceptions.ConflictException:
    print("duplicate refused")
try:
    transcribe.start_transcription_job(TranscriptionJobName="boto-job-2", LanguageCode="de-DE",
                                       Media={"MediaFileUri": "s3://calls/incoming/query 1.wav"})
    sys.exit("an unsupported language was accepted")
except transcribe.exceptions.BadRequestException as error:
    assert "en-US" in str(error), error
    print("language refused")

transcribe.get_waiter("transcription_job_completed").wait(TranscriptionJobName="boto-job-1", WaiterConfig={"Delay": 1, "MaxAttempts": 60})
job = transcribe.get_transcription_job(TranscriptionJobName="boto-job-1")["TranscriptionJob"]
assert job["TranscriptionJobStatus"] == "COMPLETED", job
print("completed", job["Transcript"]["TranscriptFileUri"])

summaries = transcribe.list_transcription_jobs(Status="COMPLETED")["TranscriptionJobSummaries"]
assert "boto-job-1" in [summary["TranscriptionJobName"] for summary in summaries], summaries

document = json.loads(s3.get_object(Bucket="calls", Key="results/boto-job-1.json")["Body"].read())
transcript = document["results"]["transcripts"][0]["transcript"]
print("transcript", transcript)
assert document["jobName"] == "boto-job-1", document["jobName"]
assert document["flightvoice"]["flight"] == expected, document["flightvoice"]
assert all("start_time" in item for item in document["results"]["items"])

head = s3.head_object(Bucket="calls", Key="incoming/query 1.wav")
assert head["ContentLength"] == len(open(clip, "rb").read()), head
s3.delete_object(Bucket="calls", Key="incoming/query 1.wav")
remaining = [entry["Key"] for entry in s3.list_objects_v2(Bucket="calls")["Contents"]]
assert remaining == ["results/boto-job-1.json"], remaining
try:
    s3.get_object(Bucket="calls", Key="incoming/query 1.wav")
    sys.exit("a deleted object is still there")
except s3.exceptions.NoSuchKey:
    print("object deleted")

transcribe.delete_transcription_job(TranscriptionJobName="boto-job-1")
try:
    transcribe.get_transcription_job(TranscriptionJobName="boto-job-1")
    sys.exit("a deleted job is still there")
except transcribe.exceptions.NotFoundException:
    print("deleted")

forged = boto3.session.Session(region_name="us-east-1", aws_access_key_id=session.get_credentials().access_key,
                               aws_secret_access_key="not-the-secret")
try:
    forged.client("s3", endpoint_url=second, config=Config(s3={"addressing_style": "path"})).get_object(Bucket="calls", Key="incoming/query 1.wav")
    sys.exit("a wrong signature was accepted by S3")
except ClientError as error:
    assert error.response["Error"]["Code"] == "SignatureDoesNotMatch", error.response
    assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 403
try:
    forged.client("transcribe", endpoint_url=second).list_transcription_jobs()
    sys.exit("a wrong signature was accepted by Transcribe")
except ClientError as error:
    assert error.response["Error"]["Code"] == "InvalidSignatureException", error.response
    assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 403
print("forged signatures refused")
print("OK")
