"""A whole USMS flow through the official UCloud Python SDK, unchanged (../shared/ucloud-sdk-python3).

Run by test/ucloud-sdk.test.ts: argv is the SDK's folder, the gateway's base URL, a public and a
private key. Prints one JSON object of what it saw, for the test to check against the store.
"""
import base64
import json
import logging
import sys
import time

sys.path.insert(0, sys.argv[1])
from ucloud.core import exc  # noqa: E402
from ucloud.services.usms.client import USMSClient  # noqa: E402

base_url, public_key, private_key = sys.argv[2], sys.argv[3], sys.argv[4]
logging.disable(logging.CRITICAL)
seen = {}


def client(url):
    return USMSClient({"region": "cn-bj2", "project_id": "org-wirebird", "base_url": url,
                       "public_key": public_key, "private_key": private_key})


def ret_code(call):
    try:
        call()
    except exc.RetCodeException as e:
        return e.code
    return 0


def wait_for(read, done, what):
    for _ in range(100):
        value = read()
        if done(value):
            return value
        time.sleep(0.1)
    raise SystemExit("timed out waiting for " + what)


usms = client(base_url + "/api")
root = client(base_url)  # the host's root as base_url works too

pdf = base64.b64encode(b"%PDF-1.4 business licence").decode()
sig = usms.create_usms_signature({"SigContent": "Wirebird", "SigType": 0, "SigPurpose": 0,
                                  "CertificateType": 0, "Description": "our brand", "File": pdf})
seen["SigId"] = sig["SigId"]
tpl = usms.create_usms_template({"Purpose": 2, "TemplateName": "order",
                                 "Template": "Order {1} ships on {2}", "Remark": "sdk flow"})
seen["TemplateId"] = tpl["TemplateId"]
seen["promotionWithoutUnsubscribe"] = ret_code(lambda: usms.create_usms_template(
    {"Purpose": 3, "TemplateName": "promo", "Template": "Sale {1}"}))
promo = usms.create_usms_template({"Purpose": 3, "TemplateName": "promo", "Template": "Sale {1}",
                                   "UnsubscribeInfo": "拒收请回复R"})
seen["promoUnsubscribe"] = usms.query_usms_template(
    {"TemplateId": promo["TemplateId"]})["Data"]["UnsubscribeInfo"]

seen["templateStatus"] = wait_for(
    lambda: root.query_usms_template({"TemplateId": tpl["TemplateId"]})["Data"]["Status"],
    lambda s: s == 2, "the template's approval")
seen["signatureStatus"] = wait_for(
    lambda: usms.query_usms_signature({"SigId": sig["SigId"]})["Data"]["Status"],
    lambda s: s == 2, "the signature's approval")

single = usms.send_usms_message({"PhoneNumbers": ["(86)13800000001", "+8613800000002"],
                                 "TemplateId": tpl["TemplateId"], "SigContent": "Wirebird",
                                 "TemplateParams": ["A-1", "Monday"], "UserId": "u-1"})
seen["single"] = single
task = [{"TemplateId": tpl["TemplateId"], "SigContent": "Wirebird",
         "Target": [{"Phone": "+8613800000013", "TemplateParams": ["A-2", "Tuesday"], "UserId": "b-1"},
                    {"Phone": "+442079460013", "TemplateParams": ["A-3", "Friday"]}]}]
batch = usms.send_batch_usms_message(
    {"TaskContent": base64.b64encode(json.dumps(task).encode()).decode()})
seen["batch"] = batch
seen["unknownSignature"] = ret_code(lambda: usms.send_usms_message(
    {"PhoneNumbers": ["+8613800000004"], "TemplateId": tpl["TemplateId"], "SigContent": "Nobody",
     "TemplateParams": ["A-4", "Sunday"]}))

sessions = [single["SessionNo"], batch["SessionNo"]]
receipts = wait_for(
    lambda: usms.get_usms_send_receipt({"SessionNoSet": sessions})["Data"],
    lambda d: sum(len(s["ReceiptSet"]) for s in d) == 4, "four receipts")
seen["receipts"] = receipts

today = time.strftime("%Y-%m-%d", time.gmtime())
stats = {"StartDate": today, "EndDate": today, "Page": 0, "NumPerPage": 10,
         "OrderBy": "BrevityCode", "OrderType": "asc"}
seen["domestic"] = usms.get_usms_send_statistics(dict(stats, Domestic=1))
seen["international"] = usms.get_usms_send_statistics(dict(stats, Domestic=0))

seen["FileId"] = usms.upload_usms_file({"FileContent": pdf, "FileName": "licence.pdf", "Source": 0,
                                        "FileType": "application/pdf"})["FileId"]
seen["qualification"] = ret_code(lambda: usms.delete_usms_signature_qualification(
    {"QualificationIds": ["q-1"]}))

usms.delete_usms_template({"TemplateIds": [tpl["TemplateId"], promo["TemplateId"]]})
usms.delete_usms_signature({"SigIds": [sig["SigId"]]})
seen["templateAfterDelete"] = ret_code(
    lambda: usms.query_usms_template({"TemplateId": tpl["TemplateId"]}))
seen["signatureAfterDelete"] = ret_code(lambda: usms.query_usms_signature({"SigId": sig["SigId"]}))

wrong = USMSClient({"region": "cn-bj2", "project_id": "org-wirebird", "base_url": base_url,
                    "public_key": public_key, "private_key": private_key + "x"})
seen["wrongPrivateKey"] = ret_code(lambda: wrong.query_usms_template({"TemplateId": "UTA1"}))
print(json.dumps(seen))
